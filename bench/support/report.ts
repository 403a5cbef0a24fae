import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { LOAD_CORE, SERVER_CORE } from './pin-to-core.js';
import { BENCH_ROOT } from './servers.js';

/** The file reports are appended to: BENCH_REPORT, else BENCHMARKS.md, from the root. */
function reportFile(): string {
  return resolve(BENCH_ROOT, process.env['BENCH_REPORT'] ?? 'BENCHMARKS.md');
}

/** Prints a report and appends it to the report file (made with its heading if missing). */
export function publishReport(report: string): void {
  process.stdout.write(`\n${report}\n`);
  const file = reportFile();
  if (!existsSync(file))
    writeFileSync(file, '# Benchmarks\n\nAppended by `npm run bench`; newest last.\n\n');
  appendFileSync(file, `${report}\n`);
}

/** The machine, as every report names it. */
export function describeMachine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Where servers and load generators ran. */
export function describeCores(): string {
  return `Servers pinned to core ${SERVER_CORE}, load generators to core ${LOAD_CORE}.`;
}

/** A progress line on stderr (the report goes to stdout). */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function sum<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.reduce((total, item) => total + pick(item), 0);
}

export function mean<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.length === 0 ? 0 : sum(items, pick) / items.length;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `part` as a whole percentage of `whole`; empty when there is no whole. */
export function percent(part: number, whole: number, decimals = 0): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(decimals)}%` : '';
}

/** The items, shifted left by `by`: the order variants take in round `by`. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
