/**
 * `npm run bench [scenario ...] [--against <git ref or directory>]`: hop as `npm start`
 * runs it, measured by the paired method (bench/support/paired-run.ts) against the bare
 * node:http ceiling (bench/ceiling-server.ts), or with --against against another
 * checkout's hop: both servers on the server core at once, each in a cpu cgroup of equal
 * weight, each driven by its own load generator on the load core, BENCH_PAIRS process pairs
 * started afresh. Each server then has half the core, so each serves about half of what it
 * would alone; the figure to read is the ratio, which steal cannot fake. The report is
 * appended to BENCHMARKS.md.
 *
 * hop runs as `npm start` runs it (package.json's start script, after its prestart), with
 * the environment this bench was given plus HOP_DATA_DIR and HOP_PORT: analytics on,
 * scanner throttling on, every default. Scenarios that need more say so in the report:
 * notfound sets HOP_SCANNER_THRESHOLD=0 (its load asks for unknown codes from 127.0.0.1,
 * which hop would otherwise answer 429 after 100 of them), mixed sets
 * HOP_BOOTSTRAP_ADMIN_KEY (its creates use that key, which no rate limit applies to).
 *
 * - hot: Zipf over 10,000 links (the L1 case); one: one code, always the same; spread:
 *   2,000 codes drawn uniformly at random (all in L1; issue 26's two cases); uniform: uniform over BENCH_UNIFORM_LINKS
 *   (default 1,000,000; most reads miss L1); notfound: random unknown codes. Closed loop,
 *   BENCH_CONNECTIONS in all, half to each server.
 * - fixed-rate: hot's paths at 10,000 req/s in all (half to each server), open loop
 *   (bench/open-loop.ts), latency from each request's intended send time; mixed: the same
 *   plus 100 creates/s through the API to each hop.
 * - analytics (also accepted as analytics-paired): an analytics-on and an analytics-off hop
 *   paired, with a browser's headers, over BENCH_PAIRS pairs (default 6 here): what counting
 *   clicks costs a redirect, and the on hop's click counters to show every click counted.
 * - smart: issue 21's five-rule smart link against a plain one, both this checkout's hop at
 *   its defaults, each on its own copy of the store, driven by hot's paths with a desktop
 *   Chrome's User-Agent and Accept-Language: in one copy every hot link is a smart link with
 *   five rules (device, language, country, query, time: bench/support/smart-links.ts), none
 *   of which the load matches, so all five are evaluated and the link falls through to its
 *   destination (the worst case); the other copy is left plain. Before each pair's windows
 *   it checks that a smart link answers 302 to its destination, uncached (private,
 *   no-store), and `?src=qr` its rule's destination, and fails the run otherwise. Target:
 *   smart serves ≥ 85% of plain's redirects per second. Not with --against.
 * - smart-ceiling: the same five-rule smart links (the smart hop of `smart`, with its check)
 *   against the bare ceiling, both driven by hot's paths with the same browser's headers
 *   (issue 26: a link with five rules at ≥ 80% of the bare server). The ceiling answers
 *   each code's destination from its map and reads no header. Not with --against.
 * - domains: issue 22's plain redirect on the default domain with a second short domain
 *   registered against without, both this checkout's hop at its defaults, each on its own
 *   copy of the store, driven by hot's paths with no headers beyond the driver's own: in one
 *   copy a second domain (go.bench.test: bench/support/second-domain.ts) is registered, so
 *   hop reads the Host header of every redirect; the other copy has only the default domain,
 *   whose Host is never read. The driver's Host (127.0.0.1:port) is no registered domain,
 *   so both serve the hot links on the default domain. Before each pair's windows it checks
 *   that the second-domain hop answers a hot code 302 to its destination and 404 with
 *   `Host: go.bench.test` (the link is on the default domain only: it routes by Host), and
 *   that the other answers 302 even with that Host; it fails the run otherwise. Target: the
 *   second-domain hop serves ≥ 98% of the other's redirects per second. Not with --against.
 * - integrations: issue 23's webhooks, event stream and visit log on against off (or those
 *   named in BENCH_INTEGRATIONS, e.g. `visits` or `webhooks,stream`), both this
 *   checkout's hop with the analytics scenario's browser headers, each on its own copy of the
 *   store. The on hop has HOP_VISIT_LOG=on, a webhook for every event type (link.clicked
 *   included) pointing at a receiver on loopback in this process, and one `GET /v1/events`
 *   subscriber reading throughout; the off hop HOP_VISIT_LOG=off, no webhook, no stream. No
 *   settling between windows: folds, deliveries and the stream run as they would in
 *   production, inside the windows. After each pair it drains the on hop's clicks and
 *   records the clicks flushed, folded and dropped, the deliveries and stream events
 *   received. Target: the on hop serves ≥ 95% of the off hop's redirects per second. Not
 *   with --against.
 * - scanner: bench/scanner-scenario.ts, visitors' throughput while a scanner floods unknown
 *   codes, in rotated rounds (its rows compare a hop with and without a scanner).
 * - codes, sweep, scale, bulk (each alone): bench/codes-bench.ts, bench/sweep-bench.ts,
 *   bench/scale-bench.ts, bench/bulk-bench.ts.
 * - regions (alone): bench/regions-bench.ts, issue 25's three regions at 1 ms and at 50 ms
 *   apart in the same windows (two sets of the test harness's network namespaces): each
 *   region's redirect p50/p99 near against far, and creates/s into one region.
 *
 * Environment: BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS
 * (bench/support/settings.ts), BENCH_PAIRS (default 3; 6 for analytics), BENCH_UNIFORM_LINKS,
 * BENCH_DRIVER (wrk or autocannon; default wrk, which must be installed), BENCH_SEED_DIR (keep the
 * seeded store there and reuse it), BENCH_SCANNER_RATE (default 5000),
 * BENCH_SCANNER_CONNECTIONS (default 16), BENCH_SCANNER_KNOWN_CODES (on or off, default on),
 * BENCH_REPORT (default BENCHMARKS.md), BENCH_HOP_NODE_FLAGS (node flags for every hop a bench
 * starts, e.g. `--cpu-prof --cpu-prof-dir=DIR`: for profiling only, figures taken with
 * them are not hop at its defaults).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  readClickCounters,
  waitUntilDrained,
  type ClickCounters,
} from './support/click-counters.js';
import { prepareCheckout, thisCheckout, type Checkout } from './support/checkout.js';
import type { DriverReport } from './support/driver-report.js';
import { redirectOutcomes, scrapeMetrics } from './support/hop-metrics.js';
import {
  chooseClosedLoopDriver,
  describeClosedLoopDriver,
  runClosedLoop,
  runOpenLoop,
  type LoadTarget,
} from './support/load-drivers.js';
import {
  describePairing,
  runPaired,
  type PairSide,
  type PairedResult,
} from './support/paired-run.js';
import {
  describeCores,
  describeMachine,
  mean,
  median,
  percent,
  progress,
  publishReport,
} from './support/report.js';
import { addDomain, SECOND_DOMAIN } from './support/second-domain.js';
import {
  openEventStream,
  registerWebhook,
  startWebhookReceiver,
  type EventStreamReader,
  type WebhookReceiver,
} from './support/integrations.js';
import { copyStore, countLinks, prepareSeededStore } from './support/seeded-store.js';
import {
  checkAnswers,
  describeRules,
  destinationOf,
  FIVE_RULES,
  makeLinksSmart,
  MATCHING_QUERY,
  RULE_DESTINATION,
  type ExpectedAnswer,
} from './support/smart-links.js';
import {
  BENCH_ROOT as ROOT,
  buildHop,
  ceilingCommand,
  compiledHopCommand,
  CEILING_READY,
  HOP_LISTENING,
  HOP_READY,
  npmStartCommand,
  prepareNpmStart,
  startServer,
  type Server,
} from './support/servers.js';
import { numberFromEnv, readBenchSettings } from './support/settings.js';
import { stopProcess } from './support/stop-process.js';
import { makeZipf } from './support/zipf.js';
import {
  describeScannerScenario,
  runScannerScenario,
  type ScannerScenarioResult,
} from './scanner-scenario.js';

const ALONE = {
  codes: './codes-bench.js',
  sweep: './sweep-bench.js',
  scale: './scale-bench.js',
  bulk: './bulk-bench.js',
  regions: './regions-bench.js',
};
const PAIRED = ['hot', 'one', 'spread', 'uniform', 'notfound', 'fixed-rate', 'mixed'] as const;
const ALL = [
  ...PAIRED,
  'analytics',
  'smart',
  'smart-ceiling',
  'domains',
  'integrations',
  'scanner',
] as const;
type PairedScenario = (typeof PAIRED)[number];
type Scenario = (typeof ALL)[number];

const {
  seconds: SECONDS,
  rounds: ROUNDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
} = readBenchSettings();
/** Connections each of a pair's two drivers holds: half of BENCH_CONNECTIONS. */
const CONNECTIONS_PER_SIDE = Math.max(1, Math.floor(CONNECTIONS / 2));
const PAIRS = numberFromEnv('BENCH_PAIRS', 3);
const ANALYTICS_PAIRS = numberFromEnv('BENCH_PAIRS', 6);
const UNIFORM_LINKS = numberFromEnv('BENCH_UNIFORM_LINKS', 1_000_000);
const HOT_LINKS = 10_000;
/** spread: codes drawn uniformly at random, few enough that L1 holds them all (issue 26). */
const SPREAD_LINKS = 2_000;
/** uniform reads all over the store: its index pages must be in the page cache first. */
const UNIFORM_WARMUP_SECONDS = 10;
/** Request paths a driver cycles through (hot, notfound). */
const PATHS_PER_FILE = 100_000;
/** uniform's paths: twice the links, at most 4M (wrk keeps every request in memory). */
const MAX_UNIFORM_PATHS = 4_000_000;
/** fixed-rate and mixed: redirects offered per second, in all. */
const FIXED_RATE = 10_000;
const MIXED_CREATES_PER_SECOND = 100;
const PORTS = [18_580, 18_581] as const;
const ADMIN_KEY = 'hop_bench_admin_key_0123456789abcdef';
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** analytics: a browser following a link from a news page (a device, a referrer, a country). */
const COUNTRY_HEADER = 'cf-ipcountry';
const ANALYTICS_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent': DESKTOP_CHROME,
  Referer: 'https://news.example.com/some/path?x=1',
  [COUNTRY_HEADER]: 'DE',
};
/** smart: what a browser sends that device and language rules read; no country header. */
const SMART_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent': DESKTOP_CHROME,
  'Accept-Language': 'en-US,en;q=0.9',
};
const SMART_LABEL = 'hop, smart links';
const PLAIN_LABEL = 'hop, plain links';
/** smart: the least a five-rule smart link serves, of a plain one's req/s (issue 21). */
const MIN_SMART_SHARE = 0.85;
/** smart-ceiling: the least a five-rule smart link serves, of the bare server's (issue 26). */
const MIN_SMART_CEILING_SHARE = 0.8;
const SECOND_DOMAIN_LABEL = 'hop, a second domain';
const DEFAULT_ONLY_LABEL = 'hop, default domain only';
/** domains: the least the default domain's redirect serves once another domain exists (issue 22). */
const MIN_DOMAINS_SHARE = 0.98;
/** The longest wait for an analytics-on hop to flush and fold a window's clicks. */
const DRAIN_TIMEOUT_MS = 30_000;
/** integrations: the least the on hop serves, of the off hop's req/s (issue 23). */
const MIN_INTEGRATIONS_SHARE = 0.95;
/** integrations: which of the three the on hop has (BENCH_INTEGRATIONS, default all). */
const INTEGRATIONS = integrationsFromEnv(process.env['BENCH_INTEGRATIONS']);
const INTEGRATIONS_ON_LABEL = `hop, ${[...INTEGRATIONS].join(', ')} on`;
const INTEGRATIONS_OFF_LABEL = 'hop, all three off';

function integrationsFromEnv(value: string | undefined): ReadonlySet<string> {
  const all = ['webhooks', 'stream', 'visits'];
  if (value === undefined || value === '' || value === 'all') return new Set(all);
  const named = value.split(',').map((name) => name.trim());
  for (const name of named) {
    if (!all.includes(name))
      throw new Error(`BENCH_INTEGRATIONS: ${name} is not one of ${all.join(', ')}`);
  }
  return new Set(named);
}
/** The pause before the final read of its counters, after it has drained. */
const SETTLE_MS = 2_000;
/**
 * integrations: how long the on hop is given, once its load stops, to write out its spooled
 * logs and send what its deliveries and stream owe (ADR 0132: they wait while redirects take
 * the CPU); caught up once the spool is empty and nothing more has come for QUIET_MS.
 */
const CATCH_UP_TIMEOUT_MS = 600_000;
const QUIET_MS = 5_000;
/** analytics: the redirect throughput analytics may cost at most, in %. */
const MAX_ANALYTICS_COST = 10;
const SCANNER_RATE = numberFromEnv('BENCH_SCANNER_RATE', 5000);
const SCANNER_CONNECTIONS = numberFromEnv('BENCH_SCANNER_CONNECTIONS', 16);
const SCANNER_ADDRESS = '127.0.0.2';
const SCANNER_KNOWN_CODES = process.env['BENCH_SCANNER_KNOWN_CODES'] ?? 'on';
if (SCANNER_KNOWN_CODES !== 'on' && SCANNER_KNOWN_CODES !== 'off')
  throw new Error(`BENCH_SCANNER_KNOWN_CODES is on or off, not ${SCANNER_KNOWN_CODES}`);

const args = parseArguments(process.argv.slice(2));
const alone =
  args.scenarios.length === 1 ? ALONE[args.scenarios[0] as keyof typeof ALONE] : undefined;
// Creates, sweeps and the scaled-out deployment are benches of their own, which exit.
if (alone !== undefined && args.against === null) await import(alone);
const scenarios = validScenarios(args.scenarios);
const driver = chooseClosedLoopDriver(process.env['BENCH_DRIVER']);
const dir = mkdtempSync(join(tmpdir(), 'hop-bench-'));
process.on('exit', () => {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // A server killed on the way out may still be writing there: the folder is temporary.
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

// 1. What `npm start` needs, in this checkout and in the other one.
prepareNpmStart(ROOT);
const current = thisCheckout(ROOT);
const against = args.against === null ? null : prepareCheckout(args.against, ROOT, dir);
if (args.compiled && against !== null && !existsSync(join(against.root, 'dist/cli/hop.js'))) {
  buildHop(against.root);
}
/** How a checkout's hop is started: its `npm start`, or compiled with --compiled. */
const hopCommand = (root: string): string[] =>
  args.compiled ? compiledHopCommand('serve') : npmStartCommand(root);
const describeCommand = (root: string) => `\`${hopCommand(root).slice(1).join(' ')}\``;

// 2. Seed, as an operator would, with the CLI (or reuse an earlier run's store). With
// --against the other checkout seeds: it may be older, and a hop migrates a store up on
// start, never down.
const needed = scenarios.includes('uniform') ? UNIFORM_LINKS : HOT_LINKS;
const store = prepareSeededStore({
  root: against?.root ?? ROOT,
  env: process.env,
  count: needed,
  scratchDir: dir,
  seedRoot: process.env['BENCH_SEED_DIR'],
});
const linksInStore = countLinks(store.dataDir);
const codes = readFileSync(store.codesFile, 'utf8').trim().split('\n');
const hotCodes = codes.slice(0, HOT_LINKS);
const zipf = makeZipf(hotCodes.length, 1.1);
const pathFiles: Record<'hot' | 'one' | 'spread' | 'uniform' | 'notfound', string> = {
  hot: writePaths('hot', PATHS_PER_FILE, () => `/${hotCodes[zipf()]}`),
  one: writePaths('one', 1, () => `/${hotCodes[0]}`),
  spread: writePaths(
    'spread',
    PATHS_PER_FILE,
    () => `/${hotCodes[Math.floor(Math.random() * SPREAD_LINKS)]}`,
  ),
  // Far more distinct codes than L1 holds, or a cycle through the file would be all hits.
  uniform: scenarios.includes('uniform')
    ? writePaths(
        'uniform',
        Math.min(2 * codes.length, MAX_UNIFORM_PATHS),
        () => `/${codes[Math.floor(Math.random() * codes.length)]}`,
      )
    : '',
  notfound: writePaths('notfound', PATHS_PER_FILE, () => `/${randomCode()}`),
};

// 3. Every scenario, one after the other; within each, the two servers side by side.
const sections: string[][] = [];
const redirectRuns = new Map<PairedScenario, RedirectRun>();
for (const scenario of scenarios) {
  if (scenario === 'analytics') sections.push(describeAnalytics(await runAnalytics()));
  else if (scenario === 'smart') sections.push(describeSmart(await runSmart()));
  else if (scenario === 'smart-ceiling')
    sections.push(describeSmartAgainstCeiling(await runSmartAgainstCeiling()));
  else if (scenario === 'domains') sections.push(describeDomains(await runDomains()));
  else if (scenario === 'integrations')
    sections.push(describeIntegrations(await runIntegrations()));
  else if (scenario === 'scanner') sections.push(describeScanner(await runScanner()));
  else {
    const run = await runRedirects(scenario);
    redirectRuns.set(scenario, run);
    sections.push(describeRedirects(scenario, run));
  }
  progress(`${scenario} done`);
}
sections.push(mixedAgainstFixedRate());

// 4. Report.
const seeding =
  store.seedSeconds === null
    ? `${needed} seeded links reused from ${store.dataDir}`
    : `${needed} links seeded in ${store.seedSeconds.toFixed(1)} s`;
const inherited = Object.keys(process.env).filter((name) => name.startsWith('HOP_'));
publishReport(
  [
    `## ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_WARMUP_SECONDS=${WARMUP_SECONDS}, BENCH_CONNECTIONS=${CONNECTIONS}; ${seeding}${against === null ? '' : ` by the --against checkout`}; ${linksInStore} links in the store in all)`,
    `Machine: ${describeMachine()}. ${describeCores()} ${describeDrivers()}`,
    `hop: ${args.compiled ? 'compiled' : "`npm start`'s command, after its prestart"}: ${describeCommand(ROOT)} in ${current.label}${against === null ? '' : `, and ${describeCommand(against.root)} in ${against.label}`}; environment: HOP_DATA_DIR and HOP_PORT${inherited.length === 0 ? ' only (every other setting at its default)' : `, and from the environment ${inherited.join(', ')}`}, plus what a scenario adds below.`,
    'errors: socket errors and timeouts, plus answers with status > 399 (except 404s in notfound, the expected answer there).',
    ...sections.flat(),
    '',
  ].join('\n'),
);
process.exit(0);

interface Arguments {
  readonly scenarios: readonly string[];
  readonly against: string | null;
  readonly compiled: boolean;
}

function parseArguments(argv: readonly string[]): Arguments {
  const scenarioNames: string[] = [];
  let againstRef: string | null = null;
  let compiled = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--compiled') compiled = true;
    else if (arg === '--against') {
      againstRef = argv[++i] ?? null;
      if (againstRef === null) throw new Error('--against needs a git ref or a directory');
    } else if (arg.startsWith('--against=')) againstRef = arg.slice('--against='.length);
    else scenarioNames.push(arg === 'analytics-paired' ? 'analytics' : arg);
  }
  return { scenarios: scenarioNames, against: againstRef, compiled };
}

function validScenarios(names: readonly string[]): Scenario[] {
  const allowed: readonly string[] = args.against === null ? ALL : PAIRED;
  for (const name of names) {
    if (!allowed.includes(name))
      throw new Error(
        args.against === null
          ? `unknown scenario ${name}; one of ${ALL.join(', ')}, or alone one of ${Object.keys(ALONE).join(', ')}`
          : `--against pairs two hops in ${PAIRED.join(', ')}, not ${name}`,
      );
  }
  const requested = names.length === 0 ? (args.against === null ? ALL : PAIRED) : names;
  return [...new Set(requested)] as Scenario[];
}

/** hop's environment: `npm start`'s (this process's), its data dir and port, and `extra`. */
function hopEnv(port: number, dataDir: string, extra: Record<string, string> = {}) {
  return { ...process.env, HOP_DATA_DIR: dataDir, HOP_PORT: String(port), ...extra };
}

/** What a scenario adds to hop's environment beyond `npm start`'s. */
function scenarioEnv(scenario: PairedScenario): Record<string, string> {
  if (scenario === 'notfound') return { HOP_SCANNER_THRESHOLD: '0' };
  if (scenario === 'mixed') return { HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY };
  return {};
}

/** The bare ceiling as side 1 of a pair, on its port, driven by `drive`. */
function ceilingSide(drive: PairSide['drive']): PairSide {
  return {
    label: 'ceiling',
    start: (inGroup) =>
      startServer({
        name: 'ceiling',
        port: PORTS[1],
        command: inGroup(ceilingCommand(store.codesFile, PORTS[1])),
        ready: CEILING_READY,
        env: process.env,
      }),
    drive,
  };
}

/** A hop side of a pair: `checkout`'s `npm start` on its port, on its data dir. */
function hopSide(
  label: string,
  checkout: Checkout,
  port: number,
  dataDir: () => Promise<string>,
  env: Record<string, string>,
  drive: (seconds: number) => Promise<DriverReport>,
): PairSide {
  const setting = (name: string) => env[name] ?? process.env[name];
  const ready = setting('HOP_KNOWN_CODES') === 'off' ? HOP_LISTENING : HOP_READY;
  return {
    label,
    start: async (inGroup) =>
      startServer({
        name: label,
        port,
        command: inGroup(hopCommand(checkout.root)),
        ready,
        env: hopEnv(port, await dataDir(), env),
        cwd: checkout.root,
      }),
    // No settle between windows: hop folds every 15 s in a thread sharing its CPU, and a
    // window must carry its share of that work, as a steady load would (ADR 0131).
    drive,
  };
}

/** A fresh copy of the seeded store for each start: two hops at once never share one. */
function freshCopy(name: string): () => Promise<string> {
  return async () => {
    const copy = join(dir, name);
    rmSync(copy, { recursive: true, force: true });
    await copyStore(store.dataDir, copy);
    return copy;
  };
}

/** One paired redirect scenario's figures, and hop's answers by outcome. */
interface RedirectRun {
  readonly paired: PairedResult<Record<string, number>[]>;
  readonly sides: readonly [string, string];
  /** Whether side 1 is a hop (with --against) rather than the ceiling. */
  readonly bothHops: boolean;
}

async function runRedirects(scenario: PairedScenario): Promise<RedirectRun> {
  const openLoop = scenario === 'fixed-rate' || scenario === 'mixed';
  const paths = pathFiles[openLoop ? 'hot' : scenario];
  const load = (port: number, isHop: boolean) => async (seconds: number) => {
    const target: LoadTarget = {
      root: ROOT,
      port,
      pathsFile: paths,
      connections: CONNECTIONS_PER_SIDE,
      seconds,
    };
    const creates =
      scenario === 'mixed' && isHop
        ? { perSecond: MIXED_CREATES_PER_SECOND, key: ADMIN_KEY }
        : undefined;
    return openLoop ? runOpenLoop(target, FIXED_RATE / 2, creates) : runClosedLoop(driver, target);
  };
  const env = scenarioEnv(scenario);
  const hop = hopSide(
    against === null ? 'hop' : `hop (${current.label})`,
    current,
    PORTS[0],
    against === null ? async () => store.dataDir : freshCopy(`${scenario}-this`),
    env,
    load(PORTS[0], true),
  );
  const other: PairSide =
    against === null
      ? ceilingSide(load(PORTS[1], false))
      : hopSide(
          `hop (${against.label})`,
          against,
          PORTS[1],
          freshCopy(`${scenario}-against`),
          env,
          load(PORTS[1], true),
        );
  const bothHops = against !== null;
  const paired = await runPaired({
    name: scenario,
    sides: [hop, other],
    pairs: PAIRS,
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds:
      scenario === 'uniform' ? Math.max(WARMUP_SECONDS, UNIFORM_WARMUP_SECONDS) : WARMUP_SECONDS,
    afterPair: async (servers) =>
      Promise.all(
        (bothHops ? servers : [servers[0]]).map(async (server) =>
          redirectOutcomes(await scrapeMetrics(server.port)),
        ),
      ),
  });
  return { paired, sides: [hop.label, other.label], bothHops };
}

function describeRedirects(scenario: PairedScenario, run: RedirectRun): string[] {
  const { paired, sides } = run;
  const ratio = median(paired.ratios);
  const added = Object.entries(scenarioEnv(scenario)).map(([name, value]) => `${name}=${value}`);
  const outcomes = paired.extras.map((perHop) => perHop.map(describeOutcomes).join(' / '));
  const lines = [
    '',
    `### ${scenario}`,
    '',
    `${describePairing(paired, describeLoad(scenario))}${added.length === 0 ? '' : ` hop ran with ${added.join(', ')} (see the top of bench/run-bench.ts).`}`,
    `${sides[0]} served, of what ${sides[1]} served in the same windows, per pair: ${listPairs(paired.ratios)}; **median ${percent(ratio, 1, 1)}** over ${paired.ratios.length} pairs of ${ROUNDS} windows of ${SECONDS} s.`,
    `hop's answers by outcome per pair, warm-ups included, from its /metrics (hop_redirect_duration_seconds_count; throttled = 429, shed = 503)${run.bothHops ? `, ${sides[0]} / ${sides[1]}` : ''}: ${outcomes.join('; ')}.`,
  ];
  if (scenario === 'fixed-rate' || scenario === 'mixed') {
    lines.push(
      `Open-loop requests sent more than 1 ms after their intended time (a sanity figure, mean per window): ${sides[0]} ${mean(paired.windows[0], (w) => w.late ?? 0).toFixed(0)}, ${sides[1]} ${mean(paired.windows[1], (w) => w.late ?? 0).toFixed(0)}.`,
    );
  }
  if (scenario === 'mixed') {
    lines.push(
      `Creates answered 201 by ${sides[0]}: ${mean(paired.windows[0], (w) => w.creates ?? 0).toFixed(0)} a window, failed ${mean(paired.windows[0], (w) => w.createErrors ?? 0).toFixed(0)}.`,
    );
  }
  const header = `| scenario | server (half the core) | req/s | p50 ms | p80 ms | p99 ms | errors | RSS MB | of ${sides[1]} |`;
  return [
    ...lines,
    '',
    header,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    row(
      scenario,
      sides[0],
      paired.windows[0],
      mean(paired.rssMb[0], (x) => x),
      percent(ratio, 1),
    ),
    row(
      scenario,
      sides[1],
      paired.windows[1],
      run.bothHops ? mean(paired.rssMb[1], (x) => x) : null,
      '',
    ),
  ];
}

/** mixed's redirect p99 within 1.5× of fixed-rate's (hot at the same offered rate). */
function mixedAgainstFixedRate(): string[] {
  const fixed = redirectRuns.get('fixed-rate');
  const mixed = redirectRuns.get('mixed');
  if (fixed === undefined || mixed === undefined) return [];
  const p99 = (run: RedirectRun) => mean(run.paired.windows[0], (w) => w.p99);
  return [
    '',
    `hop redirect p99, mixed / fixed-rate: ${(p99(mixed) / p99(fixed)).toFixed(2)}× (target ≤ 1.5×).`,
  ];
}

function describeLoad(scenario: PairedScenario): string {
  if (scenario === 'fixed-rate' || scenario === 'mixed') {
    return `each offered ${FIXED_RATE / 2} req/s of hot's paths (${FIXED_RATE} in all) over ${CONNECTIONS_PER_SIDE} connections by its own bench/open-loop.ts${scenario === 'mixed' ? `, plus ${MIXED_CREATES_PER_SECOND} creates/s to each hop on a connection of their own` : ''}`;
  }
  return eachDrivenBy(`(${CONNECTIONS} in all), closed loop`);
}

function describeDrivers(): string {
  return `Closed-loop scenarios: ${describeClosedLoopDriver(driver)}; open-loop: bench/open-loop.ts.`;
}

/** analytics: an analytics-on and an analytics-off hop paired, browser headers on both. */
async function runAnalytics(): Promise<PairedResult<ClickCounters>> {
  const load = hotLoad(ANALYTICS_HEADERS);
  // HOP_COUNTRY_HEADER on both, so HOP_ANALYTICS is their only difference.
  const side = (analytics: 'on' | 'off', port: number) =>
    hopSide(
      `hop, analytics ${analytics}`,
      current,
      port,
      freshCopy(`analytics-${analytics}`),
      { HOP_ANALYTICS: analytics, HOP_COUNTRY_HEADER: COUNTRY_HEADER },
      load(port),
    );
  return runPaired({
    name: 'analytics',
    sides: [side('on', PORTS[0]), side('off', PORTS[1])],
    pairs: ANALYTICS_PAIRS,
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    afterPair: async ([on]) => {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return readClickCounters(on.port);
    },
  });
}

function describeAnalytics(paired: PairedResult<ClickCounters>): string[] {
  const ratio = median(paired.ratios);
  const cost = 100 * (1 - ratio);
  const list = (pick: (c: ClickCounters) => number | null) =>
    paired.extras.map((c) => pick(c) ?? 'absent').join(', ');
  const headers = listHeaders(ANALYTICS_HEADERS);
  return [
    '',
    '### analytics',
    '',
    `${describePairing(paired, eachDrivenBy(`and ${headers}`))} Both hops with HOP_COUNTRY_HEADER=${COUNTRY_HEADER}, each on its own copy of the store; one HOP_ANALYTICS=on, the other off. The on hop drains its clicks after each window (both idle then).`,
    `On served, of what off served in the same windows, per pair: ${listPairs(paired.ratios)}. Median: ${percent(ratio, 1, 1)}, so analytics cost ${cost.toFixed(1)}% (target ≤ ${MAX_ANALYTICS_COST}%: ${cost <= MAX_ANALYTICS_COST ? 'met' : 'NOT met'}).`,
    `analytics clicks per pair, from the on hop's /metrics ${SETTLE_MS / 1000} s after it drained: flushed ${list((c) => c.flushed)}; folded ${list((c) => c.folded)}; dropped ${list((c) => c.dropped)}.`,
    ...twoHopTable('analytics', ['hop, analytics on', 'hop, analytics off'], 'on/off', paired),
  ];
}

/**
 * smart: this checkout's hop twice, at its defaults, with the browser's headers on both
 * loads; side 0 on a copy whose hot links are five-rule smart links, side 1 on a plain copy.
 */
async function runSmart(): Promise<PairedResult<Record<string, number>[]>> {
  const code = hotCodes[0];
  if (code === undefined) throw new Error('smart: the seeded store has no links');
  const destination = destinationOf(store.dataDir, code);
  const load = hotLoad(SMART_HEADERS);
  const plainCopy = freshCopy('smart-plain');
  const smartCopy = async () => {
    const copy = await freshCopy('smart-rules')();
    makeLinksSmart(copy, hotCodes, FIVE_RULES);
    return copy;
  };
  const smart = hopSide(SMART_LABEL, current, PORTS[0], smartCopy, {}, load(PORTS[0]));
  const plain = hopSide(PLAIN_LABEL, current, PORTS[1], plainCopy, {}, load(PORTS[1]));
  return runHopPair('smart', [
    checkedSide('smart', smart, SMART_HEADERS, [
      { path: `/${code}`, location: destination, cacheControl: 'private, no-store' },
      { path: `/${code}?${MATCHING_QUERY}`, location: RULE_DESTINATION },
    ]),
    // The plain copy really is plain: the query rule's query changes nothing there.
    checkedSide('smart', plain, SMART_HEADERS, [
      { path: `/${code}?${MATCHING_QUERY}`, location: destination },
    ]),
  ]);
}

/**
 * smart-ceiling: `smart`'s smart hop (its copy, its check) against the bare ceiling, both
 * driven by hot's paths with the browser's headers (issue 26).
 */
async function runSmartAgainstCeiling(): Promise<PairedResult<Record<string, number>[]>> {
  const code = hotCodes[0];
  if (code === undefined) throw new Error('smart-ceiling: the seeded store has no links');
  const load = hotLoad(SMART_HEADERS);
  const smartCopy = async () => {
    const copy = await freshCopy('smart-ceiling')();
    makeLinksSmart(copy, hotCodes, FIVE_RULES);
    return copy;
  };
  const smart = hopSide(SMART_LABEL, current, PORTS[0], smartCopy, {}, load(PORTS[0]));
  const ceiling = ceilingSide(load(PORTS[1]));
  return runPaired({
    name: 'smart-ceiling',
    sides: [
      checkedSide('smart-ceiling', smart, SMART_HEADERS, [
        {
          path: `/${code}`,
          location: destinationOf(store.dataDir, code),
          cacheControl: 'private, no-store',
        },
        { path: `/${code}?${MATCHING_QUERY}`, location: RULE_DESTINATION },
      ]),
      ceiling,
    ],
    pairs: PAIRS,
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    afterPair: async (servers) => [redirectOutcomes(await scrapeMetrics(servers[0].port))],
  });
}

function describeSmartAgainstCeiling(paired: PairedResult<Record<string, number>[]>): string[] {
  const ratio = median(paired.ratios);
  const outcomes = paired.extras.map((perHop) => perHop.map(describeOutcomes).join(''));
  return [
    '',
    '### smart-ceiling',
    '',
    `${describePairing(paired, eachDrivenBy(`over hot's paths and ${listHeaders(SMART_HEADERS)}`))} hop at its defaults on a copy of the store whose ${hotCodes.length} hot links are five-rule smart links, as in \`smart\` (none of the rules matches the load, so each redirect evaluates all five: the worst case); the ceiling answers each code's destination from its map, reading no header. The smart link was checked before each pair's windows, as in \`smart\`.`,
    `hop served, of what the ceiling served in the same windows, per pair: ${listPairs(paired.ratios)}; **median ${percent(ratio, 1, 1)}** (issue 26's target: ≥ ${percent(MIN_SMART_CEILING_SHARE, 1)}: ${verdict(ratio, MIN_SMART_CEILING_SHARE)}).`,
    `hop's answers by outcome per pair, warm-ups and checks included, from its /metrics (hop_redirect_duration_seconds_count; throttled = 429, shed = 503): ${outcomes.join('; ')}.`,
    ...twoHopTable('smart-ceiling', [SMART_LABEL, 'ceiling'], 'of ceiling', paired),
  ];
}

/** Two hops of this checkout paired, BENCH_PAIRS pairs, each hop's answers by outcome after each. */
function runHopPair(
  name: string,
  sides: readonly [PairSide, PairSide],
): Promise<PairedResult<Record<string, number>[]>> {
  return runPaired({
    name,
    sides,
    pairs: PAIRS,
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    afterPair: async (servers) =>
      Promise.all(
        servers.map(async (server) => redirectOutcomes(await scrapeMetrics(server.port))),
      ),
  });
}

/**
 * `side`, whose server must answer `expected` (asked with the load's `headers`) once
 * started, before any load: else the run fails.
 */
function checkedSide(
  scenario: string,
  side: PairSide,
  headers: Readonly<Record<string, string>>,
  expected: readonly ExpectedAnswer[],
): PairSide {
  return {
    ...side,
    start: async (inGroup) => {
      const server = await side.start(inGroup);
      try {
        await checkAnswers(server.port, headers, expected);
      } catch (error) {
        await stopProcess(server.child);
        throw new Error(`${scenario}: ${side.label} failed its check`, { cause: error });
      }
      return server;
    },
  };
}

function describeSmart(paired: PairedResult<Record<string, number>[]>): string[] {
  const ratio = median(paired.ratios);
  const headers = listHeaders(SMART_HEADERS);
  const outcomes = paired.extras.map((perHop) => perHop.map(describeOutcomes).join(' / '));
  return [
    '',
    '### smart',
    '',
    `${describePairing(paired, eachDrivenBy(`over hot's paths and ${headers}`))} Both hops this checkout's, at their defaults (no HOP_COUNTRY_HEADER), each on its own copy of the store. In the smart hop's copy every one of the ${hotCodes.length} hot links is a smart link with five rules of one condition each, tried in this order: ${describeRules(FIVE_RULES)}; each sends a visitor it matches to ${RULE_DESTINATION}. None matches the load (a desktop browser asking in English, no query, from 127.0.0.1, before 2030), so every redirect evaluates all five and falls through to the link's destination: the worst case. The plain hop's copy is left as seeded.`,
    `Checked before each pair's windows: a smart link answered 302 to its destination with \`cache-control: private, no-store\`, and with \`?${MATCHING_QUERY}\` 302 to ${RULE_DESTINATION}; the plain link answered \`?${MATCHING_QUERY}\` with its destination.`,
    `Smart served, of what plain served in the same windows, per pair: ${listPairs(paired.ratios)}; **median ${percent(ratio, 1, 1)}** (range ${percent(Math.min(...paired.ratios), 1, 1)}–${percent(Math.max(...paired.ratios), 1, 1)}) over ${paired.ratios.length} pairs of ${ROUNDS} windows of ${SECONDS} s (target ≥ ${percent(MIN_SMART_SHARE, 1)}: ${verdict(ratio, MIN_SMART_SHARE)}).`,
    `hop's answers by outcome per pair, warm-ups and checks included, from its /metrics (hop_redirect_duration_seconds_count; throttled = 429, shed = 503), smart / plain: ${outcomes.join('; ')}.`,
    ...twoHopTable('smart', [SMART_LABEL, PLAIN_LABEL], 'smart/plain', paired),
  ];
}

/**
 * domains: this checkout's hop twice, at its defaults, driven by hot's paths on the
 * default domain; side 0 on a copy in which a second short domain is registered (so hop
 * reads every request's Host), side 1 on a plain copy (only the default domain).
 */
async function runDomains(): Promise<PairedResult<Record<string, number>[]>> {
  const code = hotCodes[0];
  if (code === undefined) throw new Error('domains: the seeded store has no links');
  const destination = destinationOf(store.dataDir, code);
  // No headers beyond the driver's own: its Host, 127.0.0.1:port, is no registered domain,
  // so both hops route every request to the default domain, where the hot links are.
  const load = hotLoad({});
  const secondDomainCopy = async () => {
    const copy = await freshCopy('domains-second')();
    addDomain(copy, SECOND_DOMAIN);
    return copy;
  };
  const side = (label: string, port: number, copy: () => Promise<string>) =>
    hopSide(label, current, port, copy, {}, load(port));
  const withDomain = side(SECOND_DOMAIN_LABEL, PORTS[0], secondDomainCopy);
  const without = side(DEFAULT_ONLY_LABEL, PORTS[1], freshCopy('domains-default'));
  const onSecondDomain = { Host: SECOND_DOMAIN };
  return runHopPair('domains', [
    // Routed by Host: the hot link is on the default domain only, so not found on the other.
    checkedSide('domains', withDomain, {}, [
      { path: `/${code}`, location: destination },
      { path: `/${code}`, headers: onSecondDomain, status: 404 },
    ]),
    // Host never read: the same request finds the default domain's link.
    checkedSide('domains', without, {}, [
      { path: `/${code}`, headers: onSecondDomain, location: destination },
    ]),
  ]);
}

function describeDomains(paired: PairedResult<Record<string, number>[]>): string[] {
  const ratio = median(paired.ratios);
  const outcomes = paired.extras.map((perHop) => perHop.map(describeOutcomes).join(' / '));
  return [
    '',
    '### domains',
    '',
    `${describePairing(paired, eachDrivenBy(`over hot's paths, no headers beyond the driver's own`))} Both hops this checkout's, at their defaults, each on its own copy of the store. In one copy a second short domain, ${SECOND_DOMAIN} (https, no root or not-found redirect), is registered, so that hop reads the Host header of every redirect to route it; the other copy is left as seeded (only the default domain: Host is never read). Every request names the driver's Host, 127.0.0.1:port, which is no registered domain, so both hops serve the hot links on the default domain.`,
    `Checked before each pair's windows: the second-domain hop answered a hot code 302 to its destination, and 404 with \`Host: ${SECOND_DOMAIN}\` (the link is on the default domain only: it routes by Host); the default-only hop answered the same code with that Host 302 to its destination.`,
    `With a second domain, of without, in the same windows, per pair: ${listPairs(paired.ratios)}; **median ${percent(ratio, 1, 1)}** (range ${percent(Math.min(...paired.ratios), 1, 1)}–${percent(Math.max(...paired.ratios), 1, 1)}) over ${paired.ratios.length} pairs of ${ROUNDS} windows of ${SECONDS} s (target ≥ ${percent(MIN_DOMAINS_SHARE, 1)}: ${verdict(ratio, MIN_DOMAINS_SHARE)}).`,
    `hop's answers by outcome per pair, warm-ups and checks included, from its /metrics (hop_redirect_duration_seconds_count; throttled = 429, shed = 503), second domain / default only: ${outcomes.join('; ')}.`,
    ...twoHopTable('domains', [SECOND_DOMAIN_LABEL, DEFAULT_ONLY_LABEL], 'with/without', paired),
  ];
}

/** What the integrations scenario read from its on hop after each pair. */
interface IntegrationsAfterPair {
  readonly clicks: ClickCounters;
  readonly drained: boolean;
  readonly deliveries: number;
  readonly deliveriesByType: Readonly<Record<string, number>>;
  readonly streamEvents: number;
  /** When the load stopped: deliveries and stream events so far, and folds spooled. */
  readonly atLoadEnd: {
    readonly deliveries: number;
    readonly streamEvents: number;
    readonly spooled: number;
  };
  /** Seconds from the load's end until caught up; null: not within CATCH_UP_TIMEOUT_MS. */
  readonly caughtUpSeconds: number | null;
  /** Clicks in the visit log once caught up. */
  readonly visits: number;
}

/**
 * integrations: this checkout's hop twice, analytics on in both; side 0 with the visit log,
 * a webhook for every event and a live event stream, side 1 with none of them.
 */
async function runIntegrations(): Promise<PairedResult<IntegrationsAfterPair>> {
  const load = hotLoad(ANALYTICS_HEADERS);
  const common = { HOP_COUNTRY_HEADER: COUNTRY_HEADER, HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY };
  // Made afresh with each pair's on hop; closed when the next starts, and at the end.
  const hooks: { receiver: WebhookReceiver | null; stream: EventStreamReader | null } = {
    receiver: null,
    stream: null,
  };
  const onSide = hopSide(
    INTEGRATIONS_ON_LABEL,
    current,
    PORTS[0],
    freshCopy('integrations-on'),
    {
      ...common,
      HOP_VISIT_LOG: INTEGRATIONS.has('visits') ? 'on' : 'off',
      HOP_WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    load(PORTS[0]),
  );
  const offSide = hopSide(
    INTEGRATIONS_OFF_LABEL,
    current,
    PORTS[1],
    freshCopy('integrations-off'),
    { ...common, HOP_VISIT_LOG: 'off' },
    load(PORTS[1]),
  );
  const on: PairSide = {
    label: onSide.label,
    drive: onSide.drive,
    start: async (inGroup) => {
      const server = await onSide.start(inGroup);
      await hooks.receiver?.close();
      hooks.receiver = null;
      if (INTEGRATIONS.has('webhooks')) {
        hooks.receiver = await startWebhookReceiver();
        await registerWebhook(server.port, ADMIN_KEY, hooks.receiver.url);
      }
      hooks.stream?.close();
      hooks.stream = INTEGRATIONS.has('stream')
        ? await openEventStream(server.port, ADMIN_KEY)
        : null;
      return server;
    },
  };
  // No settle: what the features do after a click happens inside the windows, as it would.
  const off: PairSide = { label: offSide.label, drive: offSide.drive, start: offSide.start };
  try {
    return await runPaired({
      name: 'integrations',
      sides: [on, off],
      pairs: PAIRS,
      rounds: ROUNDS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      afterPair: async ([onServer]) => {
        const stoppedAt = Date.now();
        const onLogs = join(dir, 'integrations-on', 'clicks.db');
        const atLoadEnd = {
          deliveries: hooks.receiver?.deliveries() ?? 0,
          streamEvents: hooks.stream?.events() ?? 0,
          spooled: readClicksDb(onLogs, 'SELECT count(*) FROM fold_log_spool'),
        };
        const { counters, drained } = await waitUntilDrained(onServer.port, DRAIN_TIMEOUT_MS);
        // Deliveries of the last fold's click events follow the fold: given a moment.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const caughtUp = await waitUntilCaughtUp(
          () => [
            readClicksDb(onLogs, 'SELECT count(*) FROM fold_log_spool'),
            hooks.receiver?.deliveries() ?? 0,
            hooks.stream?.events() ?? 0,
          ],
          stoppedAt,
        );
        return {
          clicks: counters,
          drained,
          deliveries: hooks.receiver?.deliveries() ?? 0,
          deliveriesByType: hooks.receiver?.byType() ?? {},
          streamEvents: hooks.stream?.events() ?? 0,
          atLoadEnd,
          caughtUpSeconds: caughtUp,
          visits: readClicksDb(onLogs, 'SELECT coalesce(sum(clicks), 0) FROM visits'),
        };
      },
    });
  } finally {
    hooks.stream?.close();
    await hooks.receiver?.close();
  }
}

/** One number a query of the on hop's clicks.db answers (read-only, beside the running hop). */
function readClicksDb(file: string, query: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return Number(db.prepare(query).pluck().get() ?? 0);
  } finally {
    db.close();
  }
}

/**
 * Polls `progress` (spooled folds first, then counts that only grow) until the spool is
 * empty and the counts have not moved for QUIET_MS; seconds since `since`, or null.
 */
async function waitUntilCaughtUp(
  progress: () => readonly number[],
  since: number,
): Promise<number | null> {
  let last = progress();
  let quietSince = Date.now();
  while (Date.now() - since < CATCH_UP_TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = progress();
    if (now.some((value, index) => value !== last[index])) {
      last = now;
      quietSince = Date.now();
    } else if (now[0] === 0 && Date.now() - quietSince >= QUIET_MS) {
      return Math.round((quietSince - since) / 100) / 10;
    }
  }
  return null;
}

function describeIntegrations(paired: PairedResult<IntegrationsAfterPair>): string[] {
  const ratio = median(paired.ratios);
  const perPair = paired.extras.map(
    (after) =>
      `flushed ${after.clicks.flushed}, folded ${after.clicks.folded ?? 'absent'}, dropped ${after.clicks.dropped}, ${after.drained ? 'drained' : 'NOT drained'} within ${DRAIN_TIMEOUT_MS / 1000} s; webhook deliveries ${after.deliveries} (${Object.entries(
        after.deliveriesByType,
      )
        .map(([type, count]) => `${type} ${count}`)
        .join(
          ', ',
        )}); stream events ${after.streamEvents}; when the load stopped: ${after.atLoadEnd.deliveries} deliveries, ${after.atLoadEnd.streamEvents} stream events, ${after.atLoadEnd.spooled} folds spooled; ${after.caughtUpSeconds === null ? `NOT caught up within ${CATCH_UP_TIMEOUT_MS / 1000} s` : `caught up ${after.caughtUpSeconds} s after it`}; visits ${after.visits}${after.clicks.folded === undefined || !INTEGRATIONS.has('visits') ? '' : after.visits === after.clicks.folded ? ' (= folded)' : ' (NOT = folded)'}`,
  );
  return [
    '',
    '### integrations',
    '',
    `${describePairing(paired, eachDrivenBy(`over hot's paths and ${listHeaders(ANALYTICS_HEADERS)}`))} Both hops this checkout's with HOP_COUNTRY_HEADER=${COUNTRY_HEADER}, each on its own copy of the store. The on hop (BENCH_INTEGRATIONS: ${[...INTEGRATIONS].join(', ')}): HOP_VISIT_LOG=${INTEGRATIONS.has('visits') ? 'on' : 'off'}; ${INTEGRATIONS.has('webhooks') ? 'a webhook for link.created, link.updated, link.deleted and link.clicked to a receiver on loopback in the bench process (HOP_WEBHOOK_ALLOW_PRIVATE=true)' : 'no webhook'}; ${INTEGRATIONS.has('stream') ? 'one `GET /v1/events` subscriber reading throughout' : 'no stream'}. The off hop: HOP_VISIT_LOG=off, no webhook, no stream. No settling between windows: folds, deliveries and the stream run inside them.`,
    `On served, of what off served in the same windows, per pair: ${listPairs(paired.ratios)}; **median ${percent(ratio, 1, 1)}** (range ${percent(Math.min(...paired.ratios), 1, 1)}–${percent(Math.max(...paired.ratios), 1, 1)}) over ${paired.ratios.length} pairs of ${ROUNDS} windows of ${SECONDS} s (target ≥ ${percent(MIN_INTEGRATIONS_SHARE, 1)}: ${verdict(ratio, MIN_INTEGRATIONS_SHARE)}).`,
    `The on hop's click pipeline and deliveries per pair, from its /metrics after its load stopped, warm-ups included: ${perPair.join('; ')}.`,
    ...twoHopTable(
      'integrations',
      [INTEGRATIONS_ON_LABEL, INTEGRATIONS_OFF_LABEL],
      'on/off',
      paired,
    ),
  ];
}

/**
 * scanner: two hops of its own, one throttling as configured (hop's defaults unless
 * HOP_SCANNER_* are set) and one with HOP_SCANNER_THRESHOLD=0, both with HOP_KNOWN_CODES=off
 * when BENCH_SCANNER_KNOWN_CODES=off, and the ceiling (bench/scanner-scenario.ts).
 */
async function runScanner(): Promise<ScannerScenarioResult> {
  const knownCodes = SCANNER_KNOWN_CODES === 'on';
  const [throttledPort, offPort, ceilingPort] = [18_584, 18_585, 18_586];
  const ceiling = await startServer({
    name: 'ceiling',
    port: ceilingPort,
    command: ceilingCommand(store.codesFile, ceilingPort),
    ready: CEILING_READY,
    env: process.env,
  });
  const startHop = async (port: number, name: string, extra: Record<string, string>) => {
    const env = { ...(knownCodes ? {} : { HOP_KNOWN_CODES: 'off' }), ...extra };
    const server: Server = await startServer({
      name,
      port,
      command: npmStartCommand(ROOT),
      ready: knownCodes ? HOP_READY : HOP_LISTENING,
      env: hopEnv(port, await freshCopy(name)(), env),
    });
    return server.child;
  };
  return runScannerScenario({
    root: ROOT,
    seconds: SECONDS,
    rounds: ROUNDS,
    warmupSeconds: WARMUP_SECONDS,
    scannerRate: SCANNER_RATE,
    scannerConnections: SCANNER_CONNECTIONS,
    scannerAddress: SCANNER_ADDRESS,
    ceiling: { port: ceilingPort, process: ceiling.child },
    throttled: { port: throttledPort, start: () => startHop(throttledPort, 'scanner-on', {}) },
    throttlingOff: {
      port: offPort,
      start: () => startHop(offPort, 'scanner-off', { HOP_SCANNER_THRESHOLD: '0' }),
    },
    knownCodes,
    visitors: (port, seconds) =>
      runClosedLoop(driver, {
        root: ROOT,
        port,
        pathsFile: pathFiles.hot,
        connections: CONNECTIONS,
        seconds,
      }),
  });
}

function describeScanner(result: ScannerScenarioResult): string[] {
  const setting = (name: string, fallback: string) =>
    `${name}=${process.env[name] ?? `${fallback} (default)`}`;
  const throttle = [
    setting('HOP_SCANNER_THRESHOLD', '100'),
    setting('HOP_SCANNER_WINDOW', '1m'),
    setting('HOP_SCANNER_COOLDOWN', '10m'),
  ].join(', ');
  return [
    '',
    '### scanner',
    '',
    `Not paired: rows in rotated rounds, ${CONNECTIONS} visitor connections (BENCH_SCANNER_RATE=${SCANNER_RATE}, BENCH_SCANNER_KNOWN_CODES=${SCANNER_KNOWN_CODES}).`,
    ...describeScannerScenario(
      result,
      {
        rounds: ROUNDS,
        scannerRate: SCANNER_RATE,
        scannerConnections: SCANNER_CONNECTIONS,
        scannerAddress: SCANNER_ADDRESS,
      },
      throttle,
    ),
  ];
}

/** Two hops' rows, means over the windows, side 0's median share of side 1's in its own. */
function twoHopTable(
  scenario: string,
  labels: readonly [string, string],
  ratioColumn: string,
  paired: PairedResult<unknown>,
): string[] {
  const rss = (side: 0 | 1) => mean(paired.rssMb[side], (x) => x);
  return [
    '',
    `| scenario | server (half the core) | req/s | p50 ms | p80 ms | p99 ms | errors | RSS MB | ${ratioColumn} |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    row(scenario, labels[0], paired.windows[0], rss(0), percent(median(paired.ratios), 1, 1)),
    row(scenario, labels[1], paired.windows[1], rss(1), ''),
  ];
}

/** Headers as a report names them: `Name: value`, in code. */
function listHeaders(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `\`${name}: ${value}\``)
    .join(', ');
}

/** hot's paths, closed loop, half the connections, with `headers` beyond the driver's own. */
function hotLoad(headers: Readonly<Record<string, string>>) {
  return (port: number) => (seconds: number) =>
    runClosedLoop(driver, {
      root: ROOT,
      port,
      pathsFile: pathFiles.hot,
      connections: CONNECTIONS_PER_SIDE,
      seconds,
      headers,
    });
}

/** The outcomes that occurred, and throttled always, since that is the one to rule out. */
function describeOutcomes(outcomes: Record<string, number>): string {
  return Object.entries(outcomes)
    .filter(([outcome, count]) => count > 0 || outcome === 'throttled')
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ');
}

/** A table row: means over the windows; 404s are failures everywhere but notfound. */
function row(
  scenario: string,
  server: string,
  windows: readonly DriverReport[],
  rssMb: number | null,
  ratio: string,
): string {
  const errors = mean(windows, (w) => w.errors + (scenario === 'notfound' ? 0 : w.non2xx3xx));
  const m = (pick: (w: DriverReport) => number) => mean(windows, pick);
  return `| ${scenario} | ${server} | ${m((w) => w.rps).toFixed(0)} | ${m((w) => w.p50).toFixed(2)} | ${m((w) => w.p80).toFixed(2)} | ${m((w) => w.p99).toFixed(2)} | ${errors.toFixed(0)} | ${rssMb === null ? '' : rssMb.toFixed(0)} | ${ratio} |`;
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

/** Each pair's ratio, as a report lists them. */
function listPairs(ratios: readonly number[]): string {
  return ratios.map((r) => percent(r, 1, 1)).join(', ');
}

/** Whether a median reaches its target, as a report says it. */
function verdict(ratio: number, target: number): string {
  return ratio >= target ? 'met' : 'NOT met';
}

/** A paired scenario's load: each server's own closed-loop driver, then what it sends. */
function eachDrivenBy(load: string): string {
  return `each driven by its own ${describeClosedLoopDriver(driver)} with ${CONNECTIONS_PER_SIDE} connections ${load}`;
}
