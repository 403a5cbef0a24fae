/**
 * `npm run bench -- bulk` (issue 22, ADR 0120): links created per second through
 * POST /v1/links/bulk against `hop serve` (compiled, on the server core) on its defaults:
 * the embedded SQLite store, analytics and known codes on. Only HOP_DATA_DIR, HOP_HOST,
 * HOP_PORT and HOP_BOOTSTRAP_ADMIN_KEY are set: an admin key, which no create limit applies
 * to (a non-admin key is held to HOP_CREATE_RATE per link, bulk or not).
 *
 * BENCH_BULK_LINKS links (default 50,000) in calls of BENCH_BULK_SIZE (default 1,000),
 * BENCH_BULK_CONNECTIONS calls in flight (default 2), every destination new, after one
 * warm-up call that is not counted. links/s is links created over the wall time from the
 * first call sent to the last answer read; every item must answer 201, and a sample of the
 * links must redirect, or the run fails. The client (this process) builds and reads the
 * bodies on the load core.
 *
 * Environment: BENCH_BULK_LINKS, BENCH_BULK_SIZE, BENCH_BULK_CONNECTIONS, BENCH_REPORT
 * (default BENCHMARKS.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { LOAD_CORE } from './support/pin-to-core.js';
import { residentMb } from './support/process-memory.js';
import {
  describeCores,
  describeMachine,
  median,
  progress,
  publishReport,
} from './support/report.js';
import {
  BENCH_ROOT as ROOT,
  buildHop,
  compiledHopCommand,
  HOP_READY,
  startServer,
  stopAllProcesses,
} from './support/servers.js';
import { numberFromEnv } from './support/settings.js';

const LINKS = Math.floor(numberFromEnv('BENCH_BULK_LINKS', 50_000));
const SIZE = Math.min(1000, Math.floor(numberFromEnv('BENCH_BULK_SIZE', 1000)));
const CONNECTIONS = Math.floor(numberFromEnv('BENCH_BULK_CONNECTIONS', 2));
const ADMIN_KEY = 'hop_bulk_bench_admin_key_0123456789';
const PORT = 18_760;
/** Links of the run whose redirect is checked at the end. */
const REDIRECT_SAMPLE = 20;

interface CallResult {
  readonly ms: number;
  readonly created: number;
  readonly refused: number;
  readonly codes: readonly string[];
}

// The client runs on the load core, as the other benches' load generators do.
spawnSync('taskset', ['-p', '-c', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' });
buildHop(ROOT);
const dir = mkdtempSync(join(tmpdir(), 'hop-bulk-bench-'));
const server = await startServer({
  name: 'hop',
  port: PORT,
  command: compiledHopCommand('serve'),
  ready: HOP_READY,
  env: {
    ...process.env,
    HOP_DATA_DIR: join(dir, 'data'),
    HOP_HOST: '127.0.0.1',
    HOP_PORT: String(PORT),
    HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  },
});
const base = `http://127.0.0.1:${PORT}`;
let sent = 0;

await call('warmup', Math.min(SIZE, LINKS));
const started = performance.now();
const calls: CallResult[] = [];
const sendAll = async (): Promise<void> => {
  while (sent < LINKS) {
    const count = Math.min(SIZE, LINKS - sent);
    sent += count;
    calls.push(await call('run', count));
  }
};
await Promise.all(Array.from({ length: CONNECTIONS }, sendAll));
const seconds = (performance.now() - started) / 1000;
const created = calls.reduce((total, result) => total + result.created, 0);
const refused = calls.reduce((total, result) => total + result.refused, 0);
const codes = calls.flatMap((result) => result.codes);
for (let i = 0; i < REDIRECT_SAMPLE && codes.length > 0; i++) {
  const code = codes[Math.floor((i * codes.length) / REDIRECT_SAMPLE)] as string;
  const response = await fetch(`${base}/${code}`, { redirect: 'manual' });
  if (response.status !== 302) throw new Error(`/${code} answered ${response.status}, not 302`);
}
const rss = residentMb(server.child.pid ?? 0);
await stopAllProcesses();
rmSync(dir, { recursive: true, force: true });
if (refused > 0) throw new Error(`${refused} items were not created`);

const latencies = calls.map((result) => result.ms).sort((a, b) => a - b);
const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
publishReport(
  [
    `## bulk: ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench -- bulk\` (BENCH_BULK_LINKS=${LINKS}, BENCH_BULK_SIZE=${SIZE}, BENCH_BULK_CONNECTIONS=${CONNECTIONS}): POST /v1/links/bulk, every destination new, admin key so no create limit, after one warm-up call.`,
    `Machine: ${describeMachine()}. ${describeCores()} hop compiled, \`hop serve\` at its defaults on a fresh SQLite data dir; the client is this process.`,
    '',
    '| links | calls | seconds | links/s | call p50 ms | call p99 ms | RSS MB |',
    '|---|---|---|---|---|---|---|',
    `| ${created} | ${calls.length} | ${seconds.toFixed(2)} | ${(created / seconds).toFixed(0)} | ${median(latencies).toFixed(0)} | ${p99.toFixed(0)} | ${rss.toFixed(0)} |`,
    '',
  ].join('\n'),
);
process.exit(0);

/** One bulk call of `count` new links; every item must answer 201. */
async function call(tag: string, count: number): Promise<CallResult> {
  const links = Array.from({ length: count }, (_, i) => ({
    destination: `https://example.com/bulk/${tag}/${sent}/${i}/${Math.random().toString(36).slice(2)}`,
  }));
  const began = performance.now();
  const response = await fetch(`${base}/v1/links/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ links }),
  });
  const text = await response.text();
  const ms = performance.now() - began;
  if (response.status !== 207) throw new Error(`bulk answered ${response.status}: ${text}`);
  const results = (JSON.parse(text) as { results: { status: number; link?: { code: string } }[] })
    .results;
  const codes = results.flatMap((result) => (result.link === undefined ? [] : [result.link.code]));
  progress(`${tag}: ${codes.length}/${count} created in ${ms.toFixed(0)} ms`);
  return { ms, created: codes.length, refused: count - codes.length, codes };
}
