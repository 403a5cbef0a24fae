/**
 * `npm run bench -- codes` (SPEC §2): creates per second through the API and store round
 * trips per create, for every code strategy, side by side in one run, next to a ceiling (a
 * bare node:http server answering the same POST with a made-up link: no store, no checks).
 *
 * Each strategy gets a fresh hop (compiled, on the server core) on a fresh data dir; wrk
 * (on the load core) posts destinations no request repeats. Round trips come from hop's
 * own `GET /v1/stats`, read before and after the measured window: conditional inserts
 * tried, idempotency reads (none here) and the generator's leases.
 *
 * Not paired (bench/support/paired-run.ts): six servers are measured one after the other,
 * rounds interleaved, so compare within one run and mind this VM's steal.
 *
 * Environment: BENCH_SECONDS (per round, default 30), BENCH_ROUNDS (default 2, strategies
 * interleaved), BENCH_WARMUP_SECONDS (default 3), BENCH_CREATE_CONNECTIONS (default 16),
 * BENCH_REPORT (default BENCHMARKS.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DriverReport } from './support/driver-report.js';
import { startWrk } from './support/load-drivers.js';
import { residentMb } from './support/process-memory.js';
import {
  describeCores,
  describeMachine,
  mean,
  progress,
  publishReport,
  sum,
} from './support/report.js';
import {
  BENCH_ROOT as ROOT,
  buildHop,
  CEILING_READY,
  compiledHopCommand,
  createCeilingCommand,
  HOP_LISTENING,
  startServer,
  stopAllProcesses,
  type Server,
} from './support/servers.js';
import { numberFromEnv, readBenchSettings } from './support/settings.js';

const { seconds: SECONDS, rounds: ROUNDS, warmupSeconds: WARMUP_SECONDS } = readBenchSettings();
const CONNECTIONS = numberFromEnv('BENCH_CREATE_CONNECTIONS', 16);
const ADMIN_KEY = 'hop_codes_bench_admin_key_0123456789';
/** Enough for every round at well over the rates seen here. */
const POOL_CODES = 2_000_000;
const FIRST_PORT = 18_700;

const STRATEGIES = ['random', 'pool', 'snowflake', 'permutation', 'hash'] as const;
type Strategy = (typeof STRATEGIES)[number];

interface Target {
  readonly name: Strategy | 'ceiling';
  readonly server: Server;
}

interface Measured {
  readonly report: DriverReport;
  /** From /v1/stats; null for the ceiling. */
  readonly created: number | null;
  readonly inserts: number | null;
  readonly roundTrips: number | null;
}

buildHop(ROOT);
const dir = mkdtempSync(join(tmpdir(), 'hop-codes-bench-'));
const poolFile = join(dir, 'pool.codes');
const poolStarted = performance.now();
execFileSync(
  process.execPath,
  ['dist/cli/hop.js', 'pool', 'generate', '--count', String(POOL_CODES), '--file', poolFile],
  { cwd: ROOT, env: { ...process.env, HOP_DATA_DIR: join(dir, 'pool') }, stdio: 'inherit' },
);
const poolSeconds = (performance.now() - poolStarted) / 1000;

const targets: Target[] = [];
let port = FIRST_PORT;
for (const strategy of STRATEGIES) {
  const env = {
    ...process.env,
    HOP_DATA_DIR: join(dir, strategy),
    HOP_HOST: '127.0.0.1',
    HOP_PORT: String(port),
    HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
    HOP_CODE_STRATEGY: strategy,
    HOP_POOL_FILE: poolFile,
    HOP_PERMUTATION_KEY: 'codes-bench-permutation-key-0123456789',
    HOP_ANALYTICS: 'off',
    HOP_LOG_LEVEL: 'info',
  };
  const command = compiledHopCommand('serve');
  targets.push({
    name: strategy,
    server: await startServer({ name: strategy, port, command, ready: HOP_LISTENING, env }),
  });
  port++;
}
const ceiling = await startServer({
  name: 'ceiling',
  port,
  command: createCeilingCommand(port),
  ready: CEILING_READY,
  env: process.env,
});
targets.push({ name: 'ceiling', server: ceiling });

for (const target of targets) await load(target, WARMUP_SECONDS, 'warmup');
const results = new Map<string, Measured[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const target of targets) {
    const before = target.name === 'ceiling' ? null : await stats(target.server.port);
    const report = await load(target, SECONDS, `r${round}`);
    const after = target.name === 'ceiling' ? null : await stats(target.server.port);
    const measured: Measured =
      before === null || after === null
        ? { report, created: null, inserts: null, roundTrips: null }
        : {
            report,
            created: after.links_created - before.links_created,
            inserts: after.insert_attempts - before.insert_attempts,
            roundTrips: after.store_round_trips - before.store_round_trips,
          };
    results.set(target.name, [...(results.get(target.name) ?? []), measured]);
    progress(`${target.name} round ${round + 1}: ${report.rps.toFixed(0)} creates/s`);
  }
}
const memory = new Map(
  targets.map((target) => [target.name, residentMb(target.server.child.pid ?? 0)]),
);
const lengths = new Map<string, number>();
for (const target of targets) {
  if (target.name !== 'ceiling')
    lengths.set(target.name, (await fullStats(target.server.port)).length);
}
await stopAllProcesses();
rmSync(dir, { recursive: true, force: true });

const ceilingRps = mean(results.get('ceiling') ?? [], (m) => m.report.rps);
const lines = [
  '| strategy | creates/s | p50 ms | p80 ms | p99 ms | errors | store round trips / create | inserts / create | code length at end | RSS MB | of ceiling |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const target of targets) {
  const runs = results.get(target.name) ?? [];
  const rps = mean(runs, (m) => m.report.rps);
  const created = sum(runs, (m) => m.created ?? 0);
  const perCreate = (pick: (m: Measured) => number | null) =>
    target.name === 'ceiling' || created === 0
      ? ''
      : (sum(runs, (m) => pick(m) ?? 0) / created).toFixed(4);
  const rss = memory.get(target.name) ?? 0;
  lines.push(
    `| ${target.name} | ${rps.toFixed(0)} | ${mean(runs, (m) => m.report.p50).toFixed(2)} | ${mean(runs, (m) => m.report.p80).toFixed(2)} | ${mean(runs, (m) => m.report.p99).toFixed(2)} | ${sum(runs, (m) => m.report.errors + m.report.non2xx3xx)} | ${perCreate((m) => m.roundTrips)} | ${perCreate((m) => m.inserts)} | ${lengths.get(target.name) ?? ''} | ${rss.toFixed(0)} | ${target.name === 'ceiling' ? '' : `${((100 * rps) / ceilingRps).toFixed(0)}%`} |`,
  );
}
publishReport(
  [
    `## codes: ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench -- codes\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, ${CONNECTIONS} connections, wrk 1 thread, bench/creates.lua: POST /v1/links, each destination new, admin key so no rate limit).`,
    `Machine: ${describeMachine()}. ${describeCores()} Each strategy is its own hop on its own fresh SQLite data dir, analytics off; the pool's ${POOL_CODES.toLocaleString('en')} codes were made by \`hop pool generate\` in ${poolSeconds.toFixed(1)} s; the ceiling is bench/create-ceiling-server.ts (201 with a made-up link, no store).`,
    'Store round trips per create: conditional inserts tried plus the generator’s leases (pool: a batch of 10,000; permutation: a block of 1,000), from hop’s `/v1/stats` before and after each round.',
    '',
    ...lines,
    '',
  ].join('\n'),
);
process.exit(0);

function load(target: Target, seconds: number, tag: string): Promise<DriverReport> {
  return startWrk({
    root: ROOT,
    port: target.server.port,
    connections: CONNECTIONS,
    seconds,
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    script: 'bench/creates.lua',
    scriptArgs: [`${target.name}-${tag}`],
  }).report;
}

interface CreateStats {
  links_created: number;
  insert_attempts: number;
  store_round_trips: number;
}

async function stats(targetPort: number): Promise<CreateStats> {
  return (await fullStats(targetPort)).creates;
}

async function fullStats(targetPort: number): Promise<{ creates: CreateStats; length: number }> {
  const response = await fetch(`http://127.0.0.1:${targetPort}/v1/stats`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  const body = (await response.json()) as { creates: CreateStats; codes: { length: number } };
  return { creates: body.creates, length: body.codes.length };
}
