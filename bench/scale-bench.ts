/**
 * `npm run bench -- scale` (SPEC §9): hop scaled out on PostgreSQL and Redis, in one run.
 *
 * 1. Creates/s on PostgreSQL: one hop (compiled, on the server core) on a schema of its own
 *    made for this run, HOP_ANALYTICS=off, admin key (no rate limit), driven by wrk (load
 *    core) with bench/creates.lua, next to the create ceiling (bench/create-ceiling-server.ts),
 *    rounds interleaved. Store round trips per create from hop's GET /v1/stats before and
 *    after each round. The seed's write target is 1,000 creates/s.
 * 2. Redirects/s of hot links (Zipf over BENCH_SCALE_LINKS links seeded with `hop links seed`
 *    into the same schema), through HAProxy 2.6 (`haproxy -db`, a child process, config
 *    written here by bench/support/haproxy-lb.ts) to one hop and to two hops, both on that schema and
 *    one Redis prefix; the bare node:http ceiling (bench/ceiling-server.ts) behind the same
 *    HAProxy config; and hop and the ceiling directly, without the LB. All servers (hops,
 *    HAProxy, ceilings) share the server core, wrk has the load core: the machine has two.
 *    Variants run in interleaved rounds, their order rotated every round.
 * 3. Resident memory of every hop, when its part ends.
 *
 * Each window also records, from /proc, the CPU of the servers, HAProxy, the shared
 * PostgreSQL and Redis, wrk, the kernel's interrupts, and everything else on the machine
 * (other work competing for the two cores), and the steal; and, for redirects, where the
 * hops answered from (L1, L2, store, 503) and their L2 breaker and event-loop delay.
 *
 * Not paired (bench/support/paired-run.ts): HAProxy and the instances behind it share the
 * server core by design, so each variant is measured alone, in rotated rounds.
 *
 * Afterwards every process started here is stopped, the schema dropped and the Redis keys
 * under the run's prefix deleted, also when the run fails.
 *
 * Environment: BENCH_SECONDS (per round, default 10), BENCH_ROUNDS (default 2),
 * BENCH_WARMUP_SECONDS (per variant, default 3), BENCH_CONNECTIONS (redirects, default 50),
 * BENCH_CREATE_CONNECTIONS (creates, default 16), BENCH_SCALE_LINKS (default 10000),
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_REDIS_URL
 * (default redis://127.0.0.1:6379), BENCH_REPORT (default BENCHMARKS.md). The hops inherit
 * the environment, so e.g. HOP_CACHE_TIMEOUT=50ms tries another setting (the report says so).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { DriverReport } from './support/driver-report.js';
import { writeHaproxyConfig } from './support/haproxy-lb.js';
import { metricValue, scrapeMetrics } from './support/hop-metrics.js';
import { describeClosedLoopDriver, startWrk, type WrkOptions } from './support/load-drivers.js';
import { LOAD_CORE, SERVER_CORE } from './support/pin-to-core.js';
import { residentMb } from './support/process-memory.js';
import { stopProcess } from './support/stop-process.js';
import { childPids, CpuWindow, parentPid, type CpuUse } from './support/cpu-window.js';
import {
  describeMachine,
  mean,
  percent,
  progress,
  publishReport,
  rotate,
  sum,
} from './support/report.js';
import {
  BENCH_ROOT as ROOT,
  buildHop,
  ceilingCommand,
  CEILING_READY,
  compiledHopCommand,
  createCeilingCommand,
  HOP_LISTENING,
  HOP_READY,
  processCounts,
  startServer,
  stopAllProcesses,
  type Server,
} from './support/servers.js';
import { numberFromEnv, readBenchSettings } from './support/settings.js';
import { makeZipf } from './support/zipf.js';

const {
  seconds: SECONDS,
  rounds: ROUNDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
} = readBenchSettings();
const CREATE_CONNECTIONS = numberFromEnv('BENCH_CREATE_CONNECTIONS', 16);
const LINKS = numberFromEnv('BENCH_SCALE_LINKS', 10_000);
const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ADMIN_KEY = 'hop_scale_bench_admin_key_0123456789';
const PATHS = 100_000;
const CREATE_TARGET = 1_000;
const PORT = {
  createHop: 18_800,
  createCeiling: 18_801,
  hop1: 18_802,
  hop2: 18_803,
  ceiling: 18_804,
  lbOneHop: 18_805,
  lbTwoHops: 18_806,
  lbCeiling: 18_807,
} as const;
const RUN_ID = `${process.pid}_${Date.now().toString(36)}`;
const SCHEMA = `hop_bench_scale_${RUN_ID}`;
const REDIS_PREFIX = `hop-bench-scale-${RUN_ID}:`;

/** A redirect variant: where wrk sends its requests, and which of our processes serve them. */
interface Variant {
  readonly name: string;
  readonly port: number;
  /** The hops behind it (their /metrics tell where redirects were answered from). */
  readonly hops: readonly Server[];
  readonly lb: boolean;
  /** The variant the ratio column compares it to. */
  readonly ceiling: string | null;
}

/** One measured window. */
interface Window {
  readonly report: DriverReport;
  readonly cpu: CpuUse<CpuGroup>;
  /** Creates only: store round trips and links created, from /v1/stats. */
  readonly roundTrips: number | null;
  readonly created: number | null;
  /** Redirects only: answered by outcome, from the hops' /metrics. */
  readonly outcomes: Outcomes | null;
  /** Redirects only: the hops' /metrics sampled every second (see watchBreakers). */
  readonly breaker: BreakerSamples | null;
}

/** Whose CPU each window measures: the servers under test, HAProxy, PostgreSQL and Redis, wrk. */
type CpuGroup = 'servers' | 'lb' | 'store' | 'load';
const CPU_GROUPS: readonly CpuGroup[] = ['servers', 'lb', 'store', 'load'];

/**
 * Counters read from the hops' /metrics around each redirect window: redirects by outcome
 * (where they were answered from; `error` is a 503), and L2 (Redis) lookups by result.
 */
const HOP_COUNTERS = {
  l1: 'hop_redirect_duration_seconds_count{outcome="l1"}',
  l2: 'hop_redirect_duration_seconds_count{outcome="l2"}',
  store: 'hop_redirect_duration_seconds_count{outcome="store"}',
  not_found: 'hop_redirect_duration_seconds_count{outcome="not_found"}',
  error: 'hop_redirect_duration_seconds_count{outcome="error"}',
  l2Hits: 'hop_l2_requests_total{result="hit"}',
  l2Misses: 'hop_l2_requests_total{result="miss"}',
} as const;
type Outcomes = Record<keyof typeof HOP_COUNTERS, number>;

const dir = mkdtempSync(join(tmpdir(), 'hop-scale-bench-'));
let cleaned: Promise<string> | null = null;
/** Set at the start of run(): whose CPU counts as PostgreSQL's and Redis's. */
let storeRoots = { postmaster: 0, redis: 0 };
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

const started = performance.now();
try {
  await run();
} finally {
  progress(await cleanUp());
}
process.exit(0);

async function run(): Promise<void> {
  buildHop(ROOT);
  storeRoots = await findStoreRoots();
  const haproxyVersion = /HAProxy version (\S+)/.exec(
    spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).stdout ?? '',
  )?.[1];
  if (haproxyVersion === undefined)
    throw new Error('haproxy is not installed: apt-get install -y haproxy');
  const hopEnv = (name: string, port: number): NodeJS.ProcessEnv => {
    const dataDir = join(dir, name);
    mkdirSync(dataDir, { recursive: true });
    return {
      ...process.env,
      HOP_HOST: '127.0.0.1',
      HOP_PORT: String(port),
      HOP_DATA_DIR: dataDir,
      HOP_DATABASE_URL: DATABASE_URL,
      HOP_DATABASE_SCHEMA: SCHEMA,
      HOP_REDIS_URL: REDIS_URL,
      HOP_REDIS_PREFIX: REDIS_PREFIX,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_ANALYTICS: 'off',
      HOP_CREATE_RATE: 'off',
      HOP_SWEEP_INTERVAL: '0',
      HOP_LOG_LEVEL: 'info',
    };
  };

  // 1. Seed, as an operator would (this also applies the migrations to the new schema).
  const codesFile = join(dir, 'codes.txt');
  const seedStarted = performance.now();
  execFileSync(
    process.execPath,
    ['dist/cli/hop.js', 'links', 'seed', '--count', String(LINKS), '--codes', codesFile],
    { cwd: ROOT, env: hopEnv('seed', 0), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const codes = readFileSync(codesFile, 'utf8').trim().split('\n');
  const pathsFile = join(dir, 'hot.paths');
  const zipf = makeZipf(codes.length, 1.1);
  writeFileSync(pathsFile, Array.from({ length: PATHS }, () => `/${codes[zipf()]}`).join('\n'));

  // 2. Creates: hop on PostgreSQL and the create ceiling, rounds interleaved.
  const createHop = await startServer({
    name: 'hop (creates)',
    port: PORT.createHop,
    command: compiledHopCommand('serve'),
    ready: HOP_LISTENING,
    env: hopEnv('create', PORT.createHop),
  });
  const createCeiling = await startServer({
    name: 'create ceiling',
    port: PORT.createCeiling,
    command: createCeilingCommand(PORT.createCeiling),
    ready: CEILING_READY,
    env: process.env,
  });
  const createTargets = [createHop, createCeiling];
  for (const target of createTargets) await measureCreates(target, WARMUP_SECONDS, 'warmup');
  const createRuns = new Map<string, Window[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of rotate(createTargets, round)) {
      const window = await measureCreates(target, SECONDS, `r${round}`);
      push(createRuns, target.name, window);
      progress(`${target.name} round ${round + 1}: ${window.report.rps.toFixed(0)} creates/s`);
    }
  }
  const createHopRss = residentMb(createHop.child.pid ?? 0);
  await Promise.all(createTargets.map((target) => stopProcess(target.child)));

  // 3. Redirects: two hops, the ceiling, HAProxy in front of each set.
  const hop1 = await startServer({
    name: 'hop 1',
    port: PORT.hop1,
    command: compiledHopCommand('serve'),
    ready: HOP_READY,
    env: hopEnv('hop1', PORT.hop1),
  });
  const hop2 = await startServer({
    name: 'hop 2',
    port: PORT.hop2,
    command: compiledHopCommand('serve'),
    ready: HOP_READY,
    env: hopEnv('hop2', PORT.hop2),
  });
  const ceiling = await startServer({
    name: 'ceiling',
    port: PORT.ceiling,
    command: ceilingCommand(codesFile, PORT.ceiling),
    ready: CEILING_READY,
    env: process.env,
  });
  const haproxyConfig = join(dir, 'haproxy.cfg');
  writeHaproxyConfig(haproxyConfig, [
    { name: 'lb_one_hop', port: PORT.lbOneHop, servers: [PORT.hop1], healthChecks: true },
    {
      name: 'lb_two_hops',
      port: PORT.lbTwoHops,
      servers: [PORT.hop1, PORT.hop2],
      healthChecks: true,
    },
    { name: 'lb_ceiling', port: PORT.lbCeiling, servers: [PORT.ceiling], healthChecks: false },
  ]);
  const haproxy = await startServer({
    name: 'haproxy',
    port: PORT.lbOneHop,
    command: ['haproxy', '-f', haproxyConfig, '-db'],
    ready: null,
    env: process.env,
  });
  for (const port of [PORT.lbOneHop, PORT.lbTwoHops, PORT.lbCeiling, PORT.hop1, PORT.hop2]) {
    await waitForRedirect(port, codes[0] as string);
  }
  const variants: Variant[] = [
    { name: 'hop, direct', port: PORT.hop1, hops: [hop1], lb: false, ceiling: 'ceiling, direct' },
    { name: 'ceiling, direct', port: PORT.ceiling, hops: [], lb: false, ceiling: null },
    { name: 'LB → 1 hop', port: PORT.lbOneHop, hops: [hop1], lb: true, ceiling: 'LB → ceiling' },
    {
      name: 'LB → 2 hops',
      port: PORT.lbTwoHops,
      hops: [hop1, hop2],
      lb: true,
      ceiling: 'LB → ceiling',
    },
    { name: 'LB → ceiling', port: PORT.lbCeiling, hops: [], lb: true, ceiling: null },
  ];
  const cpuOf = (variant: Variant) => ({
    hops: variant.hops
      .map((hop) => hop.child.pid ?? 0)
      .concat(variant.hops.length === 0 ? [ceiling.child.pid ?? 0] : []),
    lb: variant.lb ? (haproxy.child.pid ?? 0) : null,
  });
  const redirect = async (variant: Variant, seconds: number): Promise<Window> => {
    const before = await Promise.all(variant.hops.map((hop) => readOutcomes(hop.port)));
    const pids = cpuOf(variant);
    const breakers = watchBreakers(variant.hops);
    const window = await measure(pids.hops, pids.lb, {
      root: ROOT,
      port: variant.port,
      connections: CONNECTIONS,
      seconds,
      script: 'bench/paths.lua',
      scriptArgs: [pathsFile],
    });
    const after = await Promise.all(variant.hops.map((hop) => readOutcomes(hop.port)));
    return {
      ...window,
      roundTrips: null,
      created: null,
      outcomes: variant.hops.length === 0 ? null : subtractOutcomes(after, before),
      breaker: variant.hops.length === 0 ? null : breakers.stop(),
    };
  };
  for (const variant of variants) await redirect(variant, WARMUP_SECONDS);
  const redirectRuns = new Map<string, Window[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of rotate(variants, round)) {
      const window = await redirect(variant, SECONDS);
      push(redirectRuns, variant.name, window);
      progress(`${variant.name} round ${round + 1}: ${window.report.rps.toFixed(0)} redirects/s`);
    }
  }
  const rss = {
    hop1: residentMb(hop1.child.pid ?? 0),
    hop2: residentMb(hop2.child.pid ?? 0),
    haproxy: residentMb(haproxy.child.pid ?? 0),
    ceiling: residentMb(ceiling.child.pid ?? 0),
  };
  await Promise.all([hop1, hop2, ceiling, haproxy].map((server) => stopProcess(server.child)));
  const cleanup = await cleanUp();

  // 4. Report.
  const createRows = createTargets.map((target) => ({
    name: target.name,
    runs: createRuns.get(target.name) ?? [],
  }));
  const createHopRps = mean(createRows[0]?.runs ?? [], (w) => w.report.rps);
  const createCeilingRps = mean(createRows[1]?.runs ?? [], (w) => w.report.rps);
  const rpsOf = (name: string) => mean(redirectRuns.get(name) ?? [], (w) => w.report.rps);
  const lines = [
    '| measurement | path | req/s | p50 ms | p80 ms | p99 ms | errors | non-2xx/3xx | store round trips / create | redirects from L1 / L2 / store | server CPU s/s | HAProxy CPU s/s | PostgreSQL + Redis CPU s/s | wrk CPU s/s | kernel irq CPU s/s | other CPU s/s | steal % | hop RSS MB | of ceiling |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { name, runs } of createRows) {
    const created = sum(runs, (w) => w.created ?? 0);
    const isHop = name === createHop.name;
    lines.push(
      row(
        'creates',
        name === createHop.name ? 'hop (PostgreSQL), direct' : 'create ceiling, direct',
        runs,
        {
          roundTrips:
            isHop && created > 0 ? (sum(runs, (w) => w.roundTrips ?? 0) / created).toFixed(4) : '',
          rss: isHop ? createHopRss.toFixed(0) : '',
          ofCeiling: isHop ? percent(createHopRps, createCeilingRps) : '',
        },
      ),
    );
  }
  for (const variant of variants) {
    const runs = redirectRuns.get(variant.name) ?? [];
    lines.push(
      row('redirects', variant.name, runs, {
        roundTrips: '',
        rss: variant.hops.map((hop) => (hop === hop1 ? rss.hop1 : rss.hop2).toFixed(0)).join(' / '),
        ofCeiling:
          variant.ceiling === null ? '' : percent(rpsOf(variant.name), rpsOf(variant.ceiling)),
      }),
    );
  }
  const l2 = variants
    .filter((variant) => variant.hops.length > 0)
    .map((variant) => {
      const runs = redirectRuns.get(variant.name) ?? [];
      return `${variant.name} ${sum(runs, (w) => w.outcomes?.l2Hits ?? 0)} / ${sum(runs, (w) => w.outcomes?.l2Misses ?? 0)}, breaker ${sum(runs, (w) => w.breaker?.notClosed ?? 0)} / ${sum(runs, (w) => w.breaker?.samples ?? 0)}, event-loop delay p99 up to ${Math.max(0, ...runs.map((w) => w.breaker?.lagP99Ms ?? 0)).toFixed(1)} ms`;
    })
    .join('; ');
  const warnings = [createHop, hop1, hop2]
    .map((hop) => {
      const distinct = [...new Set(hop.warnings)].slice(0, 3).map((msg) => `"${msg}"`);
      return `${hop.name} ${hop.warnings.length}${distinct.length > 0 ? ` (${distinct.join(', ')})` : ''}`;
    })
    .join('; ');
  const perRound = (names: readonly string[], runs: Map<string, Window[]>) =>
    names
      .map(
        (name) =>
          `${name} ${(runs.get(name) ?? []).map((w) => w.report.rps.toFixed(0)).join(', ')}`,
      )
      .join('; ');
  const failures = [...createRuns.values(), ...redirectRuns.values()]
    .flat()
    .reduce((total, w) => total + w.report.errors + w.report.non2xx3xx, 0);
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  const report = [
    `## scale: ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench -- scale\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_WARMUP_SECONDS=${WARMUP_SECONDS}, BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_CREATE_CONNECTIONS=${CREATE_CONNECTIONS}, BENCH_SCALE_LINKS=${LINKS}; ${minutes} min in all).`,
    `Machine: ${describeMachine()}: a VM with two vCPUs whose host takes CPU away at times (steal, per window in the table). Servers (every hop, HAProxy ${haproxyVersion} with one thread, the ceilings) pinned to core ${SERVER_CORE}; wrk pinned to core ${LOAD_CORE}. The shared PostgreSQL 15 and Redis 7 are not pinned: they take their CPU from either core.`,
    `Store: the shared PostgreSQL, schema ${SCHEMA} made for this run (migrations applied by \`hop links seed\`, ${LINKS.toLocaleString('en')} links seeded in ${seedSeconds.toFixed(1)} s), Redis prefix ${REDIS_PREFIX}. Every hop: \`node dist/cli/hop.js serve\`, HOP_ANALYTICS=off, HOP_CREATE_RATE=off, HOP_SWEEP_INTERVAL=0, ${describeTunables()}, L1 of 100,000 entries with its 60 s TTL, so the run's later windows read expired links again from Redis.`,
    `creates: ${CREATE_CONNECTIONS} connections, wrk 1 thread, bench/creates.lua (POST /v1/links, each destination new, admin key), against one hop and the create ceiling (bench/create-ceiling-server.ts: 201 with a made-up link, no store), rounds interleaved. Store round trips per create: hop's /v1/stats (conditional inserts plus generator leases) after minus before each round, over the links created. Target ≥ ${CREATE_TARGET.toLocaleString('en')} creates/s: ${createHopRps >= CREATE_TARGET ? 'met' : 'NOT met'} (${createHopRps.toFixed(0)}).`,
    `redirects: ${CONNECTIONS} connections, ${describeClosedLoopDriver('wrk')}, ${PATHS.toLocaleString('en')} paths drawn Zipf(1.1) from the seeded codes (all live, so every answer should be a 302). LB: HAProxy with deploy/haproxy.cfg's request handling and backend settings (round robin, http-reuse aggressive, GET retries, /healthz checks; the ceiling has no /healthz, so its backend has no checks), one frontend per variant in one config, no request log. Both hops run throughout; in the 1-hop variants the second one idles. Rounds interleaved, the variants' order rotated each round.`,
    `Reading it: with two vCPUs, two hops cannot scale linearly here. Both hops, HAProxy and the ceilings share one core, and PostgreSQL and Redis the same two cores with wrk, so "LB → 2 hops" splits the core LB → 1 hop had to itself between two processes plus their extra context switches. HAProxy is on that core too, so each LB row is what the servers get after HAProxy's share of it: the LB's cost here is CPU taken from the servers, more than added latency. The figures show that the path (LB, two instances, one PostgreSQL, one Redis) works and what it costs, not how far it scales; that needs a core per instance (and one for the LB).`,
    `Columns: errors are wrk's socket errors and timeouts (2 s); non-2xx/3xx are answers with status > 399 (wrk's status errors, e.g. a 503 from the store timeout or HAProxy). Redirects from L1 / L2 / store: hop_redirect_duration_seconds by outcome on the hops behind the variant, after minus before, summed over rounds; any \`error\` outcome (a 503) is counted in the notes below. CPU columns, in user + system seconds per second of the window, mean over rounds: server, the hops serving the variant (the ceiling in the ceiling rows); HAProxy; PostgreSQL + Redis, the shared servers' postmaster, all its backends and background writers, and redis-server (whoever else uses them included)${storeRoots.postmaster === 0 ? "; PostgreSQL's processes were not found here, so only Redis counts" : ''}; wrk; kernel irq, interrupt and softirq time on both cores, mostly the kernel moving loopback packets, charged to no process; other, the machine's user + system time (both cores) used by none of these nor this bench: other work sharing the machine (other sessions' tests, builds), which takes its CPU from the same two cores, plus idle helpers (the idle hop, HAProxy's health checks) and the bench's own once-a-second /metrics reads. of ceiling: creates against the create ceiling; direct redirects against the ceiling direct; LB variants against LB → ceiling.`,
    `Per round, req/s: ${perRound(
      createTargets.map((t) => t.name),
      createRuns,
    )}; ${perRound(
      variants.map((v) => v.name),
      redirectRuns,
    )}.`,
    `LB cost: LB → 1 hop is ${percent(rpsOf('LB → 1 hop'), rpsOf('hop, direct'))} of hop direct, LB → ceiling ${percent(rpsOf('LB → ceiling'), rpsOf('ceiling, direct'))} of the ceiling direct; LB → 2 hops is ${(rpsOf('LB → 2 hops') / rpsOf('LB → 1 hop')).toFixed(2)}× LB → 1 hop.`,
    `Failed answers in all windows (warm-ups excluded): ${failures}; hop redirect outcome \`error\`: ${sum([...redirectRuns.values()].flat(), (w) => w.outcomes?.error ?? 0)}, \`not_found\`: ${sum([...redirectRuns.values()].flat(), (w) => w.outcomes?.not_found ?? 0)}.`,
    `L2 (Redis) lookups, hit / miss (a miss includes a lookup past HOP_CACHE_TIMEOUT and any while the breaker is open: 5 failures in a row open it for 2 s), over the rounds, and the hops' /metrics sampled once a second during the rounds: breaker samples not closed / samples, and the largest event-loop delay p99 (hop_nodejs_eventloop_lag_p99_seconds) of any sample: ${l2}.`,
    `hop log lines at warn or above: ${warnings}.`,
    `Resident memory at the end of its part: hop (creates) ${createHopRss.toFixed(0)} MB, hop 1 ${rss.hop1.toFixed(0)} MB, hop 2 ${rss.hop2.toFixed(0)} MB; HAProxy ${rss.haproxy.toFixed(0)} MB, ceiling ${rss.ceiling.toFixed(0)} MB.`,
    `Afterwards: ${cleanup}`,
    '',
    ...lines,
    '',
  ].join('\n');
  publishReport(report);
}

/** The store and cache settings the hops ran with: the environment's, else hop's defaults. */
function describeTunables(): string {
  const defaults: Readonly<Record<string, string>> = {
    HOP_DATABASE_POOL_SIZE: '10',
    HOP_STORE_TIMEOUT: '30ms',
    HOP_CACHE_TIMEOUT: '8ms',
  };
  return Object.entries(defaults)
    .map(([name, fallback]) => {
      const set = process.env[name];
      return set === undefined ? `${name}=${fallback} (default)` : `${name}=${set}`;
    })
    .join(', ');
}

function row(
  measurement: string,
  path: string,
  runs: readonly Window[],
  extra: { roundTrips: string; rss: string; ofCeiling: string },
): string {
  const outcomes = runs.some((w) => w.outcomes !== null)
    ? `${sum(runs, (w) => w.outcomes?.l1 ?? 0)} / ${sum(runs, (w) => w.outcomes?.l2 ?? 0)} / ${sum(runs, (w) => w.outcomes?.store ?? 0)}`
    : '';
  const cpu = (group: CpuGroup) => mean(runs, (w) => w.cpu.groups[group]).toFixed(2);
  const lb = runs.some((w) => w.cpu.groups.lb > 0) ? cpu('lb') : '';
  return `| ${measurement} | ${path} | ${mean(runs, (w) => w.report.rps).toFixed(0)} | ${mean(runs, (w) => w.report.p50).toFixed(2)} | ${mean(runs, (w) => w.report.p80).toFixed(2)} | ${mean(runs, (w) => w.report.p99).toFixed(2)} | ${sum(runs, (w) => w.report.errors)} | ${sum(runs, (w) => w.report.non2xx3xx)} | ${extra.roundTrips} | ${outcomes} | ${cpu('servers')} | ${lb} | ${cpu('store')} | ${cpu('load')} | ${mean(runs, (w) => w.cpu.softirq).toFixed(2)} | ${mean(runs, (w) => w.cpu.others).toFixed(2)} | ${mean(runs, (w) => w.cpu.stealPercent).toFixed(1)} | ${extra.rss} | ${extra.ofCeiling} |`;
}

/** One create window on `target`, with hop's create counters around it. */
async function measureCreates(target: Server, seconds: number, tag: string): Promise<Window> {
  const isHop = target.name.startsWith('hop');
  const before = isHop ? await createStats(target.port) : null;
  const window = await measure([target.child.pid ?? 0], null, {
    root: ROOT,
    port: target.port,
    connections: CREATE_CONNECTIONS,
    seconds,
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    script: 'bench/creates.lua',
    scriptArgs: [`scale-${RUN_ID}-${isHop ? 'hop' : 'ceiling'}-${tag}`],
  });
  const after = isHop ? await createStats(target.port) : null;
  return {
    ...window,
    roundTrips: before && after ? after.store_round_trips - before.store_round_trips : null,
    created: before && after ? after.links_created - before.links_created : null,
    outcomes: null,
    breaker: null,
  };
}

/**
 * Runs the wrk `command` on the load core and measures, over its window, the CPU of the
 * `servers`, of HAProxy (`lb`), of the shared PostgreSQL (postmaster and every backend) and
 * Redis, of wrk, and of everything else on the machine, and the steal.
 */
async function measure(
  servers: readonly number[],
  lb: number | null,
  load: WrkOptions,
): Promise<Pick<Window, 'report' | 'cpu'>> {
  const cpu = new CpuWindow(CPU_GROUPS);
  for (const pid of servers) cpu.track('servers', pid);
  if (lb !== null) cpu.track('lb', lb);
  cpu.watch('store', storePids);
  const wrk = startWrk(load);
  cpu.track('load', wrk.child.pid, true);
  const report = await wrk.report;
  return { report, cpu: cpu.stop() };
}

/** The shared PostgreSQL's postmaster and its children (backends, writers), and Redis. */
function storePids(): number[] {
  return storeRoots.postmaster === 0
    ? [storeRoots.redis]
    : [storeRoots.postmaster, ...childPids(storeRoots.postmaster), storeRoots.redis];
}

/** The shared PostgreSQL's postmaster (the parent of a backend) and Redis's process, 0 if unknown. */
async function findStoreRoots(): Promise<{ postmaster: number; redis: number }> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  let postmaster: number;
  try {
    const backend =
      (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    // While the backend is still there: once the client ends, so does it.
    postmaster = parentPid(backend);
  } finally {
    await client.end();
  }
  const redis = new Redis(REDIS_URL);
  try {
    const info = await redis.info('server');
    return { postmaster, redis: Number(/process_id:(\d+)/.exec(info)?.[1] ?? 0) };
  } finally {
    redis.disconnect();
  }
}

async function readOutcomes(port: number): Promise<Outcomes> {
  const text = await scrapeMetrics(port);
  return mapCounters((name) => metricValue(text, HOP_COUNTERS[name]));
}

interface BreakerSamples {
  readonly samples: number;
  /** Samples in which the breaker was open or half-open. */
  readonly notClosed: number;
  /** The largest event-loop delay p99 any sample saw, ms. */
  readonly lagP99Ms: number;
}

/**
 * Samples each hop's /metrics once a second: hop_l2_breaker_state (0 closed, 1 half-open,
 * 2 open; while not closed every L2 lookup is a miss and a redirect not in L1 reads the
 * store) and hop_nodejs_eventloop_lag_p99_seconds (since the previous scrape): a reply
 * from Redis waits for the event loop like anything else, inside HOP_CACHE_TIMEOUT.
 */
function watchBreakers(hops: readonly Server[]): { stop(): BreakerSamples } {
  let samples = 0;
  let notClosed = 0;
  let lagP99Ms = 0;
  const gauge = (text: string, name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const timer = setInterval(() => {
    for (const hop of hops) {
      void fetch(`http://127.0.0.1:${hop.port}/metrics`)
        .then((response) => response.text())
        .then((text) => {
          samples++;
          if (gauge(text, 'hop_l2_breaker_state') > 0) notClosed++;
          lagP99Ms = Math.max(lagP99Ms, 1000 * gauge(text, 'hop_nodejs_eventloop_lag_p99_seconds'));
        })
        .catch(() => undefined);
    }
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      return { samples, notClosed, lagP99Ms };
    },
  };
}

function subtractOutcomes(after: readonly Outcomes[], before: readonly Outcomes[]): Outcomes {
  return mapCounters((name) => sum(after, (o) => o[name]) - sum(before, (o) => o[name]));
}

function mapCounters(value: (name: keyof typeof HOP_COUNTERS) => number): Outcomes {
  const names = Object.keys(HOP_COUNTERS) as (keyof typeof HOP_COUNTERS)[];
  return Object.fromEntries(names.map((name) => [name, value(name)])) as Outcomes;
}

interface CreateStats {
  links_created: number;
  store_round_trips: number;
}

async function createStats(port: number): Promise<CreateStats> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/stats`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  return ((await response.json()) as { creates: CreateStats }).creates;
}

/** Polls until `port` answers GET /<code> with a 302 four times in a row (both LB servers). */
async function waitForRedirect(port: number, code: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/${code}`, { redirect: 'manual' });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      if (statuses.every((status) => status === 302)) return;
      last = statuses.join(', ');
    } catch (error) {
      last = String(error);
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`port ${port} does not redirect ${code}: ${last}`);
}

/**
 * Stops whatever still runs, drops the schema, deletes the run's Redis keys and the
 * temporary folder, once; says what it removed and that nothing is left.
 */
function cleanUp(): Promise<string> {
  cleaned ??= (async () => {
    await stopAllProcesses();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    let schemaLeft: number;
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
      schemaLeft =
        (
          await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [
            SCHEMA,
          ])
        ).rowCount ?? 0;
    } finally {
      await client.end();
    }
    const redis = new Redis(REDIS_URL);
    let removed = 0;
    let keysLeft: number;
    try {
      for await (const keys of redis.scanStream({ match: `${REDIS_PREFIX}*`, count: 1000 })) {
        const batch = keys as string[];
        if (batch.length > 0) removed += await redis.del(...batch);
      }
      keysLeft = (await redis.keys(`${REDIS_PREFIX}*`)).length;
    } finally {
      redis.disconnect();
    }
    rmSync(dir, { recursive: true, force: true });
    const { started, running } = processCounts();
    return `${started} processes started, ${running} still running; schema ${SCHEMA} dropped (${schemaLeft === 0 ? 'gone' : 'STILL THERE'}); ${removed} Redis keys under ${REDIS_PREFIX} deleted (${keysLeft} left); temporary folder removed.`;
  })();
  return cleaned;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}
