import { BENCH_TAG } from './bench-links.js';
import type { BenchReport, ScenarioResult } from './run-bench.js';
import { SLO } from './slo.js';

/** Whether a scenario met each figure of SLO; null where nothing was answered. */
export interface SloVerdict {
  readonly rps: boolean;
  readonly p80: boolean | null;
  readonly p99: boolean | null;
  readonly mean: boolean | null;
}

export function judgeSlo(result: ScenarioResult): SloVerdict {
  const latency = result.latencyMs;
  return {
    rps: result.rps >= SLO.peakRps,
    p80: latency === null ? null : latency.p80 < SLO.p80Ms,
    p99: latency === null ? null : latency.p99 < SLO.p99Ms,
    mean: latency === null ? null : latency.mean < SLO.meanMs,
  };
}

/** Printed under the table, and the JSON's `latency` (joined). */
const LATENCY_NOTE = [
  'Latency is client-side: from writing each request to reading its whole answer, through',
  "loopback or the network and this process's own event loop. Where the load and hop share",
  "a small machine's CPUs it reads higher than hop's own hop_redirect_duration_seconds,",
  'which is what SPEC §1 sets figures for.',
];
const SLO_NOTE = [
  `SLO (SPEC §1): p80 < ${SLO.p80Ms} ms, p99 < ${SLO.p99Ms} ms, mean < ${SLO.meanMs} ms; ` +
    `${count(SLO.peakRps)} redirects/s at peak`,
  'for the whole service, which docs/deploy.md spreads over several instances.',
];

/** The report for people: one table row per scenario, the SLO row above them. */
export function formatBenchTable(report: BenchReport): string {
  const rows: string[][] = [
    [
      'scenario',
      'requests',
      'rps',
      '',
      'p50 ms',
      'p80 ms',
      '',
      'p99 ms',
      '',
      'mean ms',
      '',
      'errors',
    ],
    [
      'SLO',
      '',
      `>= ${count(SLO.peakRps)}`,
      '',
      '',
      `< ${SLO.p80Ms}`,
      '',
      `< ${SLO.p99Ms}`,
      '',
      `< ${SLO.meanMs}`,
      '',
      '0',
    ],
  ];
  for (const result of report.scenarios) {
    const verdict = judgeSlo(result);
    const latency = result.latencyMs;
    rows.push([
      result.name,
      count(result.requests),
      count(result.rps),
      verdict.rps ? 'pass' : 'UNDER',
      ms(latency?.p50),
      ms(latency?.p80),
      mark(verdict.p80),
      ms(latency?.p99),
      mark(verdict.p99),
      ms(latency?.mean),
      mark(verdict.mean),
      count(result.errorCount),
    ]);
  }
  const codes =
    report.codes.file === null
      ? `${count(report.codes.count)} links tagged ${BENCH_TAG} (${count(report.codes.reused)} reused, ` +
        `${count(report.codes.created)} created)`
      : `${count(report.codes.count)} codes from ${report.codes.file}`;
  const { client } = report;
  const lines = [
    `hop bench  ${report.url}  ${report.startedAt}`,
    `codes      ${codes}`,
    `load       ${report.connections} connections, closed loop, redirects not followed (${report.driver})`,
    `time       ${report.durationSeconds} s a scenario, after ${report.warmupSeconds} s of warm-up`,
    `client     ${client.cpus} CPUs (${client.cpuModel}), Node ${client.node}`,
    '',
    ...alignColumns(rows),
    '',
    ...report.scenarios.map(
      (result) => `${result.name.padEnd(8)}  ${result.about}: ${answers(result)}`,
    ),
    ...report.scenarios
      .filter((result) => result.errorCount > 0)
      .map((result) => `errors in ${result.name}: ${tally(result.errors)}`),
    ...(report.scenarios.some((result) => result.name === '404' && result.errors.has('429'))
      ? [
          '429s in 404: the target throttled this client as a code scanner (issue 8);',
          'start it with HOP_SCANNER_THRESHOLD=0 to measure what unknown codes cost.',
        ]
      : []),
    '',
    ...SLO_NOTE,
    ...LATENCY_NOTE,
  ];
  return `${lines.join('\n')}\n`;
}

/** The report for machines: one JSON object, snake_case, latencies in ms. */
export function formatBenchJson(report: BenchReport): string {
  const json = {
    started_at: report.startedAt,
    url: report.url,
    codes: { ...report.codes, tag: report.codes.file === null ? BENCH_TAG : null },
    connections: report.connections,
    duration_seconds: report.durationSeconds,
    warmup_seconds: report.warmupSeconds,
    client: {
      cpus: report.client.cpus,
      cpu_model: report.client.cpuModel,
      node: report.client.node,
    },
    driver: report.driver,
    latency: LATENCY_NOTE.join(' '),
    slo: { p80_ms: SLO.p80Ms, p99_ms: SLO.p99Ms, mean_ms: SLO.meanMs, peak_rps: SLO.peakRps },
    scenarios: report.scenarios.map((result) => ({
      name: result.name,
      about: result.about,
      requests: result.requests,
      seconds: round(result.seconds),
      rps: round(result.rps),
      p50_ms: round(result.latencyMs?.p50),
      p80_ms: round(result.latencyMs?.p80),
      p99_ms: round(result.latencyMs?.p99),
      mean_ms: round(result.latencyMs?.mean),
      max_ms: round(result.latencyMs?.max),
      statuses: Object.fromEntries(result.statuses),
      errors: result.errorCount,
      errors_by_reason: Object.fromEntries(result.errors),
      slo_met: judgeSlo(result),
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** Cells padded to their column: the first column left-aligned, marks too, numbers right. */
function alignColumns(rows: readonly string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  const isMark = (column: number) => (rows[0]?.[column] ?? '') === '';
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column === 0 || isMark(column) ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd(),
  );
}

function answers(result: ScenarioResult): string {
  return result.statuses.size === 0 ? 'no answers' : tally(result.statuses);
}

/** `302 ×1,234, 503 ×2`, the largest first. */
function tally(counts: ReadonlyMap<string | number, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([what, n]) => `${what} ×${count(n)}`)
    .join(', ');
}

function mark(met: boolean | null): string {
  return met === null ? '' : met ? 'pass' : 'OVER';
}

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function ms(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(2);
}

function round(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1000) / 1000;
}
