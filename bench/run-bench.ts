/**
 * `npm run bench [scenario ...]`: hop on its embedded default next to a bare node:http
 * ceiling, in the same run, driven from a separate process. Each scenario runs alternately
 * against hop and the ceiling; the table and the machine go to BENCHMARKS.md.
 *
 * That hop (hot, uniform, notfound, fixed-rate, mixed) runs with HOP_SCANNER_THRESHOLD=0:
 * these scenarios measure what answers cost, not throttling. With hop's default (throttle a
 * client after 100 unknown codes a minute, for 10 minutes) notfound's wrk on 127.0.0.1
 * would be answered 429 after about its first 100 requests, and 127.0.0.1 would stay
 * throttled for the scenarios after it. Only `scanner` runs hops that throttle, started for
 * it. notfound cannot count 429s as errors (wrk counts every status > 399 alike, and 404s
 * are its answer), so the report lists that hop's answers by outcome from its /metrics.
 *
 * `analytics` is hot's load, with a browser's headers, at two more hops started for it (one
 * with HOP_ANALYTICS=off, one with it on) and at the ceiling, in interleaved rounds: what
 * counting clicks costs a redirect, and the analytics-on hop's click counters to show the
 * clicks were counted.
 *
 * `analytics-paired` measures the same cost so that noise cannot fake it: this machine is a
 * VM whose host takes its CPU away at times (steal), for seconds, so two hops measured one
 * after the other can differ by 30% for nothing. Here an analytics-off and an analytics-on
 * hop run at the same time on the server core, each in a cpu cgroup of equal weight (half
 * the core each, its threads included), each driven by its own wrk with half the
 * connections: whatever the host does falls on both. The ratio of their throughputs is what
 * analytics costs; it is taken as the median over BENCH_PAIRS process pairs (default 6),
 * started afresh: single pairs still differ by about ±1.5%.
 *
 * `scanner` (ADR 0080) is hot's load from 127.0.0.1 while a code scanner floods unknown codes
 * from 127.0.0.2 (bench/scanner-load.ts, a process of its own on the load core, open loop at
 * BENCH_SCANNER_RATE), at two hops of its own, each on its copy of the store: one throttling
 * at hop's defaults (or HOP_SCANNER_* as given in the environment), without and with the
 * scanner, and one with HOP_SCANNER_THRESHOLD=0, with and without it; and the ceiling
 * without it, in rotated rounds (bench/scanner-scenario.ts). Reports the visitors'
 * throughput and latency per row, the scanner's rate and its 404s and 429s, each hop's L1
 * misses, skipped reads and store reads per second (from its /metrics), and the two cores'
 * busy time, since wrk and the scanner share the load core. BENCH_SCANNER_KNOWN_CODES=off
 * starts both its hops with HOP_KNOWN_CODES=off: every unknown code then costs a store
 * read unless its client is throttled, which is where throttling saves hop work.
 *
 * `codes` (alone) is bench/codes-bench.ts: creates/s and store round trips per code strategy.
 * `sweep` (alone) is bench/sweep-bench.ts, and `scale` (alone) bench/scale-bench.ts: creates on
 * PostgreSQL and redirects through HAProxy to one and two instances on PostgreSQL and Redis.
 *
 * Environment: BENCH_SECONDS (per round, default 10), BENCH_ROUNDS (default 2),
 * BENCH_WARMUP_SECONDS (per server and scenario, default 3), BENCH_PAIRS (analytics-paired,
 * default 6), BENCH_SCANNER_RATE (scanner req/s, default 5000), BENCH_SCANNER_CONNECTIONS
 * (default 16), BENCH_SCANNER_KNOWN_CODES (on or off, default on), BENCH_UNIFORM_LINKS (default
 * 1000000), BENCH_CONNECTIONS (default 50), BENCH_DRIVER (wrk or autocannon for the
 * closed-loop scenarios; default wrk when installed), BENCH_SEED_DIR (keep the seeded
 * store there and reuse it for the same count; default a temporary folder), BENCH_REPORT
 * (the file the report is appended to; default BENCHMARKS.md).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverReport } from './driver-report.js';
import {
  chooseClosedLoopDriver,
  describeClosedLoopDriver,
  runClosedLoop,
  runOpenLoop,
  type LoadTarget,
} from './load-drivers.js';
import { LOAD_CORE, pin, SERVER_CORE } from './pin-to-core.js';
import { stopProcess } from './stop-process.js';
import { readClickCounters, waitUntilDrained, type ClickCounters } from './click-counters.js';
import { cpuSeconds, residentMb } from './process-memory.js';
import { copyStore, countLinks, prepareSeededStore } from './seeded-store.js';
import { CpuShareGroups } from './cpu-share-groups.js';
import { makeZipf } from './zipf.js';
import {
  describeScannerScenario,
  runScannerScenario,
  type ScannerScenarioResult,
} from './scanner-scenario.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 3);
const UNIFORM_LINKS = Number(process.env['BENCH_UNIFORM_LINKS'] ?? 1_000_000);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const SEED_ROOT = process.env['BENCH_SEED_DIR'];
const REPORT_FILE = resolve(ROOT, process.env['BENCH_REPORT'] ?? 'BENCHMARKS.md');
const HOT_LINKS = 10_000;
/** uniform reads all over the store: its index pages must be in the page cache first. */
const UNIFORM_WARMUP_SECONDS = 10;
/** Request paths a driver cycles through (hot, notfound). */
const PATHS_PER_FILE = 100_000;
/**
 * uniform's paths: twice the links, at most 4M (wrk keeps every request in memory). With
 * 1M links ~86% of codes appear, so L1 (100k) answers about a tenth of requests; with 10M,
 * about a hundredth.
 */
const MAX_UNIFORM_PATHS = 4_000_000;
const FIXED_RATE = 10_000;
const MIXED_CREATES_PER_SECOND = 100;
const HOP_PORT = 18_580;
const CEILING_PORT = 18_581;
/** analytics: the two hops it starts, one with HOP_ANALYTICS=off and one with it on. */
const ANALYTICS_OFF_PORT = 18_582;
const ANALYTICS_ON_PORT = 18_583;
/** analytics-paired: process pairs, each started afresh. */
const PAIRS = Number(process.env['BENCH_PAIRS'] ?? 6);
/** scanner: the two hops it starts, and what its scanner offers, from where. */
const SCANNER_OFF_PORT = 18_584;
const SCANNER_ON_PORT = 18_585;
const SCANNER_RATE = Number(process.env['BENCH_SCANNER_RATE'] ?? 5000);
const SCANNER_CONNECTIONS = Number(process.env['BENCH_SCANNER_CONNECTIONS'] ?? 16);
const SCANNER_ADDRESS = '127.0.0.2';
const SCANNER_KNOWN_CODES = process.env['BENCH_SCANNER_KNOWN_CODES'] ?? 'on';
if (SCANNER_KNOWN_CODES !== 'on' && SCANNER_KNOWN_CODES !== 'off')
  throw new Error(`BENCH_SCANNER_KNOWN_CODES is on or off, not ${SCANNER_KNOWN_CODES}`);
/** analytics: the header a trusted edge puts the country in (HOP_COUNTRY_HEADER). */
const COUNTRY_HEADER = 'cf-ipcountry';
/**
 * analytics: what a browser following a link from a news page sends, so every click has
 * a device to classify, a referrer host to extract and a country. All three servers get
 * them. One user agent and one referrer: the flusher parses each once and remembers it,
 * as it would the few hundred that repeat in real traffic.
 */
const ANALYTICS_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  Referer: 'https://news.example.com/some/path?x=1',
  [COUNTRY_HEADER]: 'DE',
};
/** analytics: the longest wait for the analytics-on hop to flush and fold a run's clicks. */
const DRAIN_TIMEOUT_MS = 30_000;
/** analytics: the pause before the final read of its counters, after it has drained. */
const SETTLE_MS = 2_000;
/** analytics: the redirect throughput analytics may cost at most, in %. */
const MAX_ANALYTICS_COST = 10;
const ADMIN_KEY = 'hop_bench_admin_key_0123456789abcdef';
const ALL = [
  'hot',
  'uniform',
  'notfound',
  'fixed-rate',
  'mixed',
  'analytics',
  'analytics-paired',
  'scanner',
] as const;
type Scenario = (typeof ALL)[number];

/** analytics' figures: the three servers', memory, and the analytics-on hop's clicks. */
interface AnalyticsRow {
  off: Result;
  on: Result;
  ceiling: Result;
  offRssMb: number;
  onRssMb: number;
  /** Redirects the analytics-on hop's driver counted as answered, warm-up included. */
  onRequests: number;
  /** Its click counters, read after the load and SETTLE_MS. */
  clicks: ClickCounters;
  /** Whether it drained within DRAIN_TIMEOUT_MS after every run. */
  drained: boolean;
  /** CPU it spent after each run until drained (flushing and folding), mean, ms. */
  tailCpuMsPerRun: number;
}

/** analytics-paired's figures: per process pair, on's throughput over off's, and the runs. */
interface PairedRow {
  /** Per pair, the mean over its rounds of (on req/s) / (off req/s) in the same window. */
  ratios: number[];
  off: Result;
  on: Result;
  /** Whether each hop had its own cpu cgroup (else the scheduler was fair per thread). */
  cgroups: boolean;
  clicks: ClickCounters[];
}

/** One server's figures for one scenario, averaged over its rounds. */
interface Result {
  rps: number;
  p50: number;
  p80: number;
  p99: number;
  /** Socket errors and timeouts, plus statuses > 399 where none is expected. */
  errors: number;
  /** Open loop only: requests sent more than 1 ms after their intended time. */
  late: number;
  /** mixed only: links created (201), and creates that failed. */
  creates: number;
  createErrors: number;
}

const requested = process.argv.slice(2);
if (requested.length === 1 && requested[0] === 'codes') {
  // Creates, not redirects: a bench of its own (bench/codes-bench.ts), which exits.
  await import('./codes-bench.js');
}
if (requested.length === 1 && requested[0] === 'sweep') await import('./sweep-bench.js');
// SPEC §9: hop on PostgreSQL and Redis, behind HAProxy (bench/scale-bench.ts), which exits.
if (requested.length === 1 && requested[0] === 'scale') await import('./scale-bench.js');
for (const name of requested) {
  if (!(ALL as readonly string[]).includes(name))
    throw new Error(`unknown scenario ${name}; one of ${ALL.join(', ')}`);
}
const scenarios: Scenario[] = requested.length === 0 ? [...ALL] : (requested as Scenario[]);
/** wrk is closed-loop; these two offer a fixed rate, so they need the open-loop driver. */
const isOpenLoop = (scenario: Scenario) => scenario === 'fixed-rate' || scenario === 'mixed';
const closedLoopDriver = chooseClosedLoopDriver(process.env['BENCH_DRIVER']);

// Paths files always go to a temporary folder; the store too, unless BENCH_SEED_DIR keeps it.
const dir = mkdtempSync(join(tmpdir(), 'hop-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const serverEnv = {
  ...process.env,
  HOP_HOST: '127.0.0.1',
  HOP_PORT: String(HOP_PORT),
  HOP_LOG_LEVEL: 'info',
  HOP_CREATE_RATE: 'off',
  HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  HOP_L1_MAX_ENTRIES: '100000',
};

// 1. Seed, as an operator would, with the CLI (or reuse an earlier run's store).
const needed = scenarios.some((s) => s === 'uniform') ? UNIFORM_LINKS : HOT_LINKS;
const store = prepareSeededStore({
  root: ROOT,
  env: serverEnv,
  count: needed,
  scratchDir: dir,
  seedRoot: SEED_ROOT,
});
const linksInStore = countLinks(store.dataDir);
// The main hop does not throttle scanners: notfound's unknown codes come from 127.0.0.1.
const env = { ...serverEnv, HOP_DATA_DIR: store.dataDir, HOP_SCANNER_THRESHOLD: '0' };
// analytics: each of its two hops gets a copy of the store, made now, before any hop has it
// open. Sharing one file would be safe for SQLite (WAL) but not for the comparison: the
// analytics-on hop writes click batches and aggregates to it every second, and the
// analytics-off hop would then checkpoint that WAL (in its worker thread, on the server
// core) and read through it, paying part of the cost being measured. Copies keep the two
// alike in all but HOP_ANALYTICS, with the same codes, so the same paths and the ceiling fit.
const analyticsDirs = { off: join(dir, 'analytics-off'), on: join(dir, 'analytics-on') };
if (scenarios.includes('analytics')) {
  await copyStore(store.dataDir, analyticsDirs.off);
  await copyStore(store.dataDir, analyticsDirs.on);
}
// scanner: its two hops get a copy each, for the same reason (both count clicks).
const scannerDirs = { on: join(dir, 'scanner-on'), off: join(dir, 'scanner-off') };
if (scenarios.includes('scanner')) {
  await copyStore(store.dataDir, scannerDirs.on);
  await copyStore(store.dataDir, scannerDirs.off);
}
const pairedDirs = Array.from({ length: PAIRS }, (_, pair) => ({
  off: join(dir, `paired-off-${pair}`),
  on: join(dir, `paired-on-${pair}`),
}));
if (scenarios.includes('analytics-paired')) {
  for (const pairDirs of pairedDirs) {
    await copyStore(store.dataDir, pairDirs.off);
    await copyStore(store.dataDir, pairDirs.on);
  }
}
const codes = readFileSync(store.codesFile, 'utf8').trim().split('\n');

// 2. Request paths per scenario.
const hotCodes = codes.slice(0, HOT_LINKS);
const zipf = makeZipf(hotCodes.length, 1.1);
const pathFiles: Record<string, string> = {
  hot: writePaths('hot', PATHS_PER_FILE, () => `/${hotCodes[zipf()]}`),
  // Far more distinct codes than L1 holds, or a cycle through the file would be all hits.
  uniform: writePaths(
    'uniform',
    Math.min(2 * codes.length, MAX_UNIFORM_PATHS),
    () => `/${codes[Math.floor(Math.random() * codes.length)]}`,
  ),
  notfound: writePaths('notfound', PATHS_PER_FILE, () => `/${randomCode()}`),
};

// 3. Start both servers on the server core; the load generators get the other one.
// hop runs as deployed: compiled (npm run build), not through tsx, whose compiler would
// count towards hop's resident memory. Ready once every stored code is in its filter.
// analytics and scanner start hops of their own, so with only those this one is not started.
execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const HOP_COMMAND = pin(SERVER_CORE, [process.execPath, 'dist/cli/hop.js', 'serve']);
const HOP_READY = /known codes loaded/;
/** HOP_KNOWN_CODES=off: the filter is never loaded, so ready once it listens. */
const HOP_READY_WITHOUT_KNOWN_CODES = /hop listening/;
const hop = scenarios.some((s) => s !== 'analytics' && s !== 'analytics-paired' && s !== 'scanner')
  ? await startServer(HOP_COMMAND, HOP_READY, env)
  : null;
const ceiling = await startServer(
  pin(SERVER_CORE, [
    process.execPath,
    '--import',
    'tsx',
    'bench/ceiling-server.ts',
    store.codesFile,
    String(CEILING_PORT),
  ]),
  /ceiling listening/,
  env,
);

// 4. Run every scenario alternately against hop and the ceiling.
const rows: {
  scenario: Scenario;
  hop: Result;
  ceiling: Result;
  hopRssMb: number;
  /** hop's answers by outcome over the scenario (warm-up included), from its /metrics. */
  outcomes: Record<string, number>;
}[] = [];
let analytics: AnalyticsRow | null = null;
let paired: PairedRow | null = null;
let scanner: ScannerScenarioResult | null = null;
for (const scenario of scenarios) {
  if (scenario === 'analytics') {
    analytics = await runAnalytics();
    process.stderr.write(`${scenario} done\n`);
    continue;
  }
  if (scenario === 'analytics-paired') {
    paired = await runAnalyticsPaired();
    process.stderr.write(`${scenario} done\n`);
    continue;
  }
  if (scenario === 'scanner') {
    scanner = await runScanner();
    process.stderr.write(`${scenario} done\n`);
    continue;
  }
  if (hop === null) throw new Error('hop was not started');
  const paths = pathFiles[isOpenLoop(scenario) ? 'hot' : scenario] as string;
  const drive = async (port: number, seconds: number): Promise<Result> => {
    const target: LoadTarget = {
      root: ROOT,
      port,
      pathsFile: paths,
      connections: CONNECTIONS,
      seconds,
    };
    // mixed creates links on hop only: the ceiling has no API.
    const creates =
      scenario === 'mixed' && port === HOP_PORT
        ? { perSecond: MIXED_CREATES_PER_SECOND, key: ADMIN_KEY }
        : undefined;
    const report = isOpenLoop(scenario)
      ? await runOpenLoop(target, FIXED_RATE, creates)
      : await runClosedLoop(closedLoopDriver, target);
    return resultOf(scenario, report);
  };
  const outcomesBefore = await readOutcomes(HOP_PORT);
  // Warm both: JIT, L1 (hot), page cache (uniform: long enough to touch most index pages).
  const warmup =
    scenario === 'uniform' ? Math.max(WARMUP_SECONDS, UNIFORM_WARMUP_SECONDS) : WARMUP_SECONDS;
  await drive(HOP_PORT, warmup);
  await drive(CEILING_PORT, warmup);
  const hopRuns: Result[] = [];
  const ceilingRuns: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    hopRuns.push(await drive(HOP_PORT, SECONDS));
    ceilingRuns.push(await drive(CEILING_PORT, SECONDS));
  }
  rows.push({
    scenario,
    hop: mean(hopRuns),
    ceiling: mean(ceilingRuns),
    hopRssMb: residentMb(hop.pid ?? 0),
    outcomes: outcomesSince(outcomesBefore, await readOutcomes(HOP_PORT)),
  });
  process.stderr.write(`${scenario} done\n`);
}
const rssMb = hop === null ? null : residentMb(hop.pid ?? 0);

// 5. Report.
const header =
  '| scenario | server | req/s | p50 ms | p80 ms | p99 ms | errors | hop RSS MB | hop/ceiling |';
const lines = [header, '|---|---|---:|---:|---:|---:|---:|---:|---:|'];
const tableRows = lines.length;
for (const scenario of scenarios) {
  const row = rows.find((r) => r.scenario === scenario);
  if (row !== undefined) {
    const ratio = `${((100 * row.hop.rps) / row.ceiling.rps).toFixed(0)}%`;
    lines.push(format(row.scenario, 'hop', row.hop, row.hopRssMb.toFixed(0), ratio));
    lines.push(format(row.scenario, 'ceiling', row.ceiling, '', ''));
  }
  if (scenario === 'analytics' && analytics !== null) {
    const { off, on, ceiling } = analytics;
    const ofCeiling = (r: Result) => `${((100 * r.rps) / ceiling.rps).toFixed(0)}%`;
    lines.push(
      format(scenario, 'hop, analytics off', off, analytics.offRssMb.toFixed(0), ofCeiling(off)),
    );
    lines.push(
      format(scenario, 'hop, analytics on', on, analytics.onRssMb.toFixed(0), ofCeiling(on)),
    );
    lines.push(format(scenario, 'ceiling', ceiling, '', ''));
  }
  if (scenario === 'analytics-paired' && paired !== null) {
    lines.push(format(scenario, 'hop, analytics off (half a core)', paired.off, '', ''));
    lines.push(format(scenario, 'hop, analytics on (half a core)', paired.on, '', ''));
  }
}
const cpu = cpus()[0]?.model ?? 'unknown cpu';
const machine = `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const seeding =
  store.seedSeconds === null
    ? `${needed} seeded links reused from ${store.dataDir}`
    : `${needed} links seeded in ${store.seedSeconds.toFixed(1)} s`;
const openLoopRows = rows.filter((row) => isOpenLoop(row.scenario));
const report = [
  `## ${new Date().toISOString()}`,
  '',
  `Command: \`npm run bench${requested.length > 0 ? ` -- ${requested.join(' ')}` : ''}\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_CONNECTIONS=${CONNECTIONS}${scenarios.includes('scanner') ? `, BENCH_SCANNER_RATE=${SCANNER_RATE}, BENCH_SCANNER_KNOWN_CODES=${SCANNER_KNOWN_CODES}` : ''}; ${seeding}; ${linksInStore} links in the store in all)`,
  `Machine: ${machine}. Servers pinned to core ${SERVER_CORE}, load generators to core ${LOAD_CORE}. ${describeDrivers()}`,
  'errors: socket errors and timeouts, plus answers with status > 399 (except 404s in notfound, the expected answer there).',
  ...(openLoopRows.length > 0
    ? [
        'Open-loop requests sent more than 1 ms after their intended time (a sanity figure, mean per round): ' +
          openLoopRows
            .map(
              (row) =>
                `${row.scenario} hop ${row.hop.late.toFixed(0)}, ceiling ${row.ceiling.late.toFixed(0)}`,
            )
            .join('; ') +
          '.',
      ]
    : []),
  ...mixedAgainstFixedRate(),
  ...describeAnalytics(),
  ...describePaired(),
  ...(rssMb === null ? [] : [`hop resident memory at the end: ${rssMb.toFixed(0)} MB.`]),
  ...(rows.length === 0
    ? []
    : [
        `hop ran with HOP_SCANNER_THRESHOLD=0 (no client throttled). Its answers by outcome per scenario, warm-ups included, from its /metrics (hop_redirect_duration_seconds_count; throttled = 429, shed = 503): ${rows.map((row) => `${row.scenario} ${describeOutcomes(row.outcomes)}`).join('; ')}.`,
      ]),
  ...(lines.length > tableRows ? ['', ...lines] : []),
  ...(scanner === null
    ? []
    : [
        '',
        ...describeScannerScenario(
          scanner,
          {
            rounds: ROUNDS,
            scannerRate: SCANNER_RATE,
            scannerConnections: SCANNER_CONNECTIONS,
            scannerAddress: SCANNER_ADDRESS,
          },
          scannerThrottleSettings(),
        ),
      ]),
  '',
].join('\n');
process.stdout.write(`\n${report}\n`);
if (!existsSync(REPORT_FILE))
  writeFileSync(REPORT_FILE, '# Benchmarks\n\nAppended by `npm run bench`; newest last.\n\n');
appendFileSync(REPORT_FILE, `${report}\n`);
process.exit(0);

/**
 * scanner: two hops started for it, one throttling as configured (hop's defaults unless
 * HOP_SCANNER_* are set) and one with HOP_SCANNER_THRESHOLD=0, both with HOP_KNOWN_CODES=off
 * when BENCH_SCANNER_KNOWN_CODES=off, and the ceiling; visitors get hot's paths
 * (bench/scanner-scenario.ts).
 */
function runScanner(): Promise<ScannerScenarioResult> {
  const knownCodes = SCANNER_KNOWN_CODES === 'on';
  const startScannerHop = (port: number, dataDir: string, extra: Record<string, string>) =>
    startServer(HOP_COMMAND, knownCodes ? HOP_READY : HOP_READY_WITHOUT_KNOWN_CODES, {
      // serverEnv, not env: the throttled hop keeps hop's own scanner settings.
      ...serverEnv,
      HOP_PORT: String(port),
      HOP_DATA_DIR: dataDir,
      ...(knownCodes ? {} : { HOP_KNOWN_CODES: 'off' }),
      ...extra,
    });
  return runScannerScenario({
    root: ROOT,
    seconds: SECONDS,
    rounds: ROUNDS,
    warmupSeconds: WARMUP_SECONDS,
    scannerRate: SCANNER_RATE,
    scannerConnections: SCANNER_CONNECTIONS,
    scannerAddress: SCANNER_ADDRESS,
    ceiling: { port: CEILING_PORT, process: ceiling },
    throttled: {
      port: SCANNER_ON_PORT,
      start: () => startScannerHop(SCANNER_ON_PORT, scannerDirs.on, {}),
    },
    throttlingOff: {
      port: SCANNER_OFF_PORT,
      start: () =>
        startScannerHop(SCANNER_OFF_PORT, scannerDirs.off, { HOP_SCANNER_THRESHOLD: '0' }),
    },
    knownCodes,
    visitors: (port, seconds) =>
      runClosedLoop(closedLoopDriver, {
        root: ROOT,
        port,
        pathsFile: pathFiles['hot'] as string,
        connections: CONNECTIONS,
        seconds,
      }),
  });
}

/** The throttled hop's scanner settings, as its environment gives them (else the defaults). */
function scannerThrottleSettings(): string {
  const setting = (name: string, fallback: string) =>
    `${name}=${process.env[name] ?? `${fallback} (default)`}`;
  return [
    setting('HOP_SCANNER_THRESHOLD', '100'),
    setting('HOP_SCANNER_WINDOW', '1m'),
    setting('HOP_SCANNER_COOLDOWN', '10m'),
  ].join(', ');
}

/** hop's redirect answers so far, by outcome (hop_redirect_duration_seconds_count). */
async function readOutcomes(port: number): Promise<Record<string, number>> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics on port ${port} answered ${response.status}`);
  const counts: Record<string, number> = {};
  const text = await response.text();
  for (const match of text.matchAll(
    /^hop_redirect_duration_seconds_count\{outcome="([a-z_0-9]+)"\} (\S+)$/gm,
  )) {
    counts[match[1] as string] = Number(match[2]);
  }
  return counts;
}

function outcomesSince(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([outcome, count]) => [outcome, count - (before[outcome] ?? 0)]),
  );
}

/** The outcomes that occurred, and throttled always, since that is the one to rule out. */
function describeOutcomes(outcomes: Record<string, number>): string {
  return Object.entries(outcomes)
    .filter(([outcome, count]) => count > 0 || outcome === 'throttled')
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ');
}

/** mixed's redirect p99 within 1.5× of fixed-rate's, hot at the same rate (BENCHMARKS.md). */
function mixedAgainstFixedRate(): string[] {
  const fixed = rows.find((row) => row.scenario === 'fixed-rate');
  const mixed = rows.find((row) => row.scenario === 'mixed');
  if (fixed === undefined || mixed === undefined) return [];
  return [
    `hop redirect p99, mixed / fixed-rate: ${(mixed.hop.p99 / fixed.hop.p99).toFixed(2)}× (target ≤ 1.5×); creates answered 201 in mixed: ${mixed.hop.creates.toFixed(0)} a round, failed ${mixed.hop.createErrors.toFixed(0)}.`,
  ];
}

/**
 * analytics: two hops of its own, HOP_ANALYTICS=off and on, each on its copy of the store,
 * and the ceiling, all driven with hot's load and ANALYTICS_HEADERS one after the other.
 */
function analyticsHopEnv(analyticsSwitch: 'on' | 'off', port: number, dataDir: string) {
  return {
    ...serverEnv,
    HOP_PORT: String(port),
    HOP_DATA_DIR: dataDir,
    HOP_ANALYTICS: analyticsSwitch,
    // On both, so HOP_ANALYTICS is their only difference; with analytics off it is unused.
    HOP_COUNTRY_HEADER: COUNTRY_HEADER,
  };
}

async function runAnalytics(): Promise<AnalyticsRow> {
  const offHop = await startServer(
    HOP_COMMAND,
    HOP_READY,
    analyticsHopEnv('off', ANALYTICS_OFF_PORT, analyticsDirs.off),
  );
  const onHop = await startServer(
    HOP_COMMAND,
    HOP_READY,
    analyticsHopEnv('on', ANALYTICS_ON_PORT, analyticsDirs.on),
  );
  const onPid = onHop.pid ?? 0;
  const load = (port: number, seconds: number) =>
    runClosedLoop(closedLoopDriver, {
      root: ROOT,
      port,
      pathsFile: pathFiles['hot'] as string,
      connections: CONNECTIONS,
      seconds,
      headers: ANALYTICS_HEADERS,
    });
  const driveOff = async (seconds: number) =>
    resultOf('analytics', await load(ANALYTICS_OFF_PORT, seconds));
  const driveCeiling = async (seconds: number) =>
    resultOf('analytics', await load(CEILING_PORT, seconds));
  // The analytics-on hop flushes and folds its last interval's clicks after its load has
  // stopped. That work is waited out (and its CPU time measured) before the next run, so it
  // never lands, on the shared server core, in another server's measured window.
  let onRequests = 0;
  let onRuns = 0;
  let tailCpuSeconds = 0;
  let drained = true;
  const driveOn = async (seconds: number) => {
    const report = await load(ANALYTICS_ON_PORT, seconds);
    onRequests += report.requests;
    const cpuBefore = cpuSeconds(onPid);
    drained = (await waitUntilDrained(ANALYTICS_ON_PORT, DRAIN_TIMEOUT_MS)).drained && drained;
    tailCpuSeconds += cpuSeconds(onPid) - cpuBefore;
    onRuns++;
    return resultOf('analytics', report);
  };

  await driveOff(WARMUP_SECONDS);
  await driveOn(WARMUP_SECONDS);
  await driveCeiling(WARMUP_SECONDS);
  const offRuns: Result[] = [];
  const onResults: Result[] = [];
  const ceilingRuns: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The two hops take turns going first, so that drift between rounds falls on both.
    if (round % 2 === 0) {
      offRuns.push(await driveOff(SECONDS));
      onResults.push(await driveOn(SECONDS));
    } else {
      onResults.push(await driveOn(SECONDS));
      offRuns.push(await driveOff(SECONDS));
    }
    ceilingRuns.push(await driveCeiling(SECONDS));
  }
  const offRssMb = residentMb(offHop.pid ?? 0);
  const onRssMb = residentMb(onPid);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const clicks = await readClickCounters(ANALYTICS_ON_PORT);
  await Promise.all([stopProcess(offHop), stopProcess(onHop)]);
  return {
    off: mean(offRuns),
    on: mean(onResults),
    ceiling: mean(ceilingRuns),
    offRssMb,
    onRssMb,
    onRequests,
    clicks,
    drained,
    tailCpuMsPerRun: (1000 * tailCpuSeconds) / onRuns,
  };
}

/**
 * analytics-paired: per pair, an off and an on hop started afresh, each in its cpu cgroup,
 * warmed and then driven at the same time, round after round; the on hop drains its clicks
 * between rounds (both idle then), so that work is never inside a measured window.
 */
async function runAnalyticsPaired(): Promise<PairedRow> {
  const groups = CpuShareGroups.create(['hop-bench-off', 'hop-bench-on']);
  const inGroup = (index: number) =>
    groups === null ? HOP_COMMAND : groups.wrap(index, HOP_COMMAND);
  const load = (port: number, seconds: number) =>
    runClosedLoop(closedLoopDriver, {
      root: ROOT,
      port,
      pathsFile: pathFiles['hot'] as string,
      connections: Math.max(1, Math.floor(CONNECTIONS / 2)),
      seconds,
      headers: ANALYTICS_HEADERS,
    });
  const both = (seconds: number) =>
    Promise.all([load(ANALYTICS_OFF_PORT, seconds), load(ANALYTICS_ON_PORT, seconds)]);
  const ratios: number[] = [];
  const offRuns: Result[] = [];
  const onRuns: Result[] = [];
  const clicks: ClickCounters[] = [];
  try {
    for (const pairDirs of pairedDirs) {
      const offHop = await startServer(
        inGroup(0),
        HOP_READY,
        analyticsHopEnv('off', ANALYTICS_OFF_PORT, pairDirs.off),
      );
      const onHop = await startServer(
        inGroup(1),
        HOP_READY,
        analyticsHopEnv('on', ANALYTICS_ON_PORT, pairDirs.on),
      );
      await both(WARMUP_SECONDS);
      await waitUntilDrained(ANALYTICS_ON_PORT, DRAIN_TIMEOUT_MS);
      const pairRatios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const [off, on] = await both(SECONDS);
        pairRatios.push(on.rps / off.rps);
        offRuns.push(resultOf('analytics', off));
        onRuns.push(resultOf('analytics', on));
        await waitUntilDrained(ANALYTICS_ON_PORT, DRAIN_TIMEOUT_MS);
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      clicks.push(await readClickCounters(ANALYTICS_ON_PORT));
      ratios.push(pairRatios.reduce((sum, ratio) => sum + ratio, 0) / pairRatios.length);
      await Promise.all([stopProcess(offHop), stopProcess(onHop)]);
      process.stderr.write(`analytics-paired: pair ${ratios.length}, on/off ${ratios.at(-1)}\n`);
    }
  } finally {
    groups?.remove();
  }
  return { ratios, off: mean(offRuns), on: mean(onRuns), cgroups: groups !== null, clicks };
}

/** analytics-paired's lines above the table. */
function describePaired(): string[] {
  if (paired === null) return [];
  const sorted = [...paired.ratios].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  const cost = 100 * (1 - median);
  const perPair = paired.ratios.map((ratio) => `${(100 * ratio).toFixed(1)}%`).join(', ');
  const flushed = paired.clicks.map((c) => c.flushed).join(', ');
  const folded = paired.clicks.map((c) => c.folded ?? 'absent').join(', ');
  const dropped = paired.clicks.map((c) => c.dropped).join(', ');
  return [
    `analytics-paired: ${paired.ratios.length} process pairs, each an analytics-off and an analytics-on hop on the server core at the same time, ${paired.cgroups ? 'each in a cpu cgroup of equal weight (half the core each, all its threads included)' : "WITHOUT cpu cgroups (none could be made: the scheduler was fair per thread, so the on hop's aggregator thread took its CPU from both)"}, each driven by its own wrk with ${Math.max(1, Math.floor(CONNECTIONS / 2))} connections and the same headers. On served, of what off served in the same window, per pair: ${perPair}. Median: ${(100 * median).toFixed(1)}%, so analytics cost ${cost.toFixed(1)}% (target ≤ ${MAX_ANALYTICS_COST}%: ${cost <= MAX_ANALYTICS_COST ? 'met' : 'NOT met'}).`,
    `analytics-paired clicks per pair, from the on hop's /metrics after it drained: flushed ${flushed}; folded ${folded}; dropped ${dropped}.`,
  ];
}

/** analytics' lines above the table: the cost, the click counters, memory. */
function describeAnalytics(): string[] {
  if (analytics === null) return [];
  const { off, on, clicks } = analytics;
  const cost = 100 * (1 - on.rps / off.rps);
  const sink =
    process.env['HOP_NATS_URL'] === undefined
      ? 'embedded sink (SQLite click_queue, folded in process)'
      : 'NATS JetStream sink (HOP_NATS_URL; folded by hop worker, not counted here)';
  return [
    `analytics: hop with HOP_ANALYTICS=on served ${((100 * on.rps) / off.rps).toFixed(1)}% of the redirects per second hop with HOP_ANALYTICS=off served: a difference of ${cost.toFixed(1)}% (one hop after the other, so steal on this VM can make or hide a gap of this size: the ≤ ${MAX_ANALYTICS_COST}% target is judged by analytics-paired); p99 on / off ${(on.p99 / off.p99).toFixed(2)}×. Both hops started for this scenario, each on its own copy of the seeded store, ${describeHeaders()} sent to them and the ceiling, rounds interleaved (the two hops alternate going first).`,
    `analytics clicks, from the analytics-on hop's /metrics ${SETTLE_MS / 1000} s after its pipeline ${analytics.drained ? 'drained' : `had still not drained after ${DRAIN_TIMEOUT_MS / 1000} s`} (${sink}): hop_click_events_flushed_total ${clicks.flushed}, hop_click_events_folded_total ${clicks.folded ?? 'absent'}, hop_click_events_dropped_total ${clicks.dropped}; its driver counted ${analytics.onRequests} answered redirects (warm-up and rounds).`,
    `analytics resident memory after the load: hop with HOP_ANALYTICS=off ${analytics.offRssMb.toFixed(0)} MB, with it on ${analytics.onRssMb.toFixed(0)} MB. After each of its runs the analytics-on hop spent ${analytics.tailCpuMsPerRun.toFixed(0)} ms of CPU flushing and folding the last clicks (and answering the bench's /metrics polls), outside the measured window and waited out before the next run.`,
  ];
}

function describeHeaders(): string {
  return Object.entries(ANALYTICS_HEADERS)
    .map(([name, value]) => `\`${name}: ${value}\``)
    .join(', ');
}

/** Which driver drove which scenarios, and how, for the report. */
function describeDrivers(): string {
  const closed = scenarios.filter((s) => !isOpenLoop(s));
  const open = scenarios.filter(isOpenLoop);
  const sentences: string[] = [];
  if (closed.length > 0) {
    sentences.push(
      `${closed.join(', ')}: closed loop, ${CONNECTIONS} connections, driven by ${describeClosedLoopDriver(closedLoopDriver)}.`,
    );
  }
  if (open.length > 0) {
    sentences.push(
      `${open.join(', ')}: open loop, bench/open-loop.ts offering ${FIXED_RATE} req/s in all over ${CONNECTIONS} connections; latency runs from each request's intended send time, so a stalled server is not hidden.`,
    );
  }
  if (scenarios.includes('mixed')) {
    sentences.push(
      `mixed adds ${MIXED_CREATES_PER_SECOND} creates/s through the API against hop, sent by the same open-loop process on its own connection.`,
    );
  }
  return sentences.join(' ');
}

/** A driver's report as the table shows it: 404s are failures everywhere but notfound. */
function resultOf(scenario: Scenario, report: DriverReport): Result {
  return {
    rps: report.rps,
    p50: report.p50,
    p80: report.p80,
    p99: report.p99,
    errors: report.errors + (scenario === 'notfound' ? 0 : report.non2xx3xx),
    late: report.late ?? 0,
    creates: report.creates ?? 0,
    createErrors: report.createErrors ?? 0,
  };
}

function startServer(
  command: string[],
  ready: RegExp,
  serverEnvironment: NodeJS.ProcessEnv,
): Promise<ChildProcess> {
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: serverEnvironment,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve(child);
    });
    child.on('exit', (code) => {
      reject(new Error(`${command.join(' ')} exited with ${code}`));
    });
  });
}

function writePaths(name: string, count: number, next: () => string): string {
  const file = join(dir, `${name}.paths`);
  writeFileSync(file, Array.from({ length: count }, next).join('\n') + '\n');
  return file;
}

function randomCode(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let code = '';
  for (let i = 0; i < 7; i++) code += alphabet.charAt(Math.floor(Math.random() * 62));
  return code;
}

function mean(results: Result[]): Result {
  const avg = (pick: (r: Result) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    rps: avg((r) => r.rps),
    p50: avg((r) => r.p50),
    p80: avg((r) => r.p80),
    p99: avg((r) => r.p99),
    errors: avg((r) => r.errors),
    late: avg((r) => r.late),
    creates: avg((r) => r.creates),
    createErrors: avg((r) => r.createErrors),
  };
}

function format(scenario: string, server: string, r: Result, rssMb: string, ratio: string): string {
  return `| ${scenario} | ${server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p80.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors.toFixed(0)} | ${rssMb} | ${ratio} |`;
}
