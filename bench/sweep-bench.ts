/**
 * `npm run bench -- sweep` (SPEC §7, ADR 0051): a sweep of a store holding a million expired links
 * "neither locks the store nor stalls redirects". Redirect load on the live links, first
 * with no sweep, then while `hop sweep` (a separate process on the same SQLite file, as an
 * operator runs it) marks every expired link and reclaims every row, next to the ceiling
 * (bench/ceiling-server.ts) under the same two loads.
 *
 * The store: `hop migrate` on a fresh data dir, then BENCH_SWEEP_EXPIRED (default
 * 1,000,000) links written with better-sqlite3 in transactions of 100,000, active but
 * expired 40 to 50 days ago (past HOP_RECLAIM_GRACE=30d, so the sweep marks and then
 * reclaims them all), soonest expiry first, then 10,000 live links (no expiry), the newest
 * rows. Random 7-character codes, so the live codes sit among the expired ones in every
 * code index page. Every sweep runs on its own copy of that store.
 *
 * Servers, each on the server core, each measured in turn: hop (HOP_ANALYTICS=off,
 * HOP_SWEEP_INTERVAL=0 so it never sweeps by itself); hop with an L1 of one entry, so
 * every redirect reads SQLite (a redirect of a link not in L1, as on a cold or large
 * store); hop with a create sent every 500 ms alongside (a writer, which needs the write
 * lock the sweep takes once per batch); and the ceiling. For each: a warm-up, then wrk (1
 * thread, 50 connections, bench/paths.lua, 100,000 paths drawn uniformly from the live
 * codes) for BENCH_SECONDS with no sweep; then wrk again, with `hop sweep` (pinned to the
 * load core, next to wrk) started 1 s after it on the same data dir (for the ceiling, on a
 * copy nobody serves), and wrk stopped (SIGINT: it prints its figures for the time it ran)
 * when the sweep exits, so the window is the sweep plus the second before it. During a
 * sweep hop's /metrics is read every 10 s (throughput and event-loop delay per slice), and
 * the CPU of other processes on the machine is measured, to tell a stall from a busy
 * neighbour. Before the servers, the sweep runs once with nothing else running, for its
 * duration alone.
 *
 * Not paired (bench/support/paired-run.ts): each server is compared with itself, with and
 * without a sweep; the other-processes and steal columns tell a stall from a busy machine.
 *
 * Environment: BENCH_SECONDS (the no-sweep window, default 10), BENCH_WARMUP_SECONDS
 * (default 3), BENCH_CONNECTIONS (default 50), BENCH_SWEEP_EXPIRED (default 1000000),
 * BENCH_SWEEP_SERVERS (comma-separated, of hop, hop-store, hop-creates, ceiling; default
 * all four),
 * BENCH_SEED_DIR (keep the seeded store there and reuse it), BENCH_REPORT (default
 * BENCHMARKS.md).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { monotonicFactory } from 'ulid';
import type { DriverReport } from './support/driver-report.js';
import { startWrk, type LoadRun } from './support/load-drivers.js';
import { LOAD_CORE, pin, SERVER_CORE } from './support/pin-to-core.js';
import { CpuWindow } from './support/cpu-window.js';
import { metricValue, scrapeMetrics } from './support/hop-metrics.js';
import { cpuSeconds, residentMb } from './support/process-memory.js';
import { describeMachine, median, progress, publishReport } from './support/report.js';
import {
  BENCH_ROOT as ROOT,
  buildHop,
  ceilingCommand,
  CEILING_READY,
  compiledHopCommand,
  HOP_READY,
  startServer,
  trackProcess,
  type Server,
} from './support/servers.js';
import { numberFromEnv, readBenchSettings } from './support/settings.js';
import { stopProcess } from './support/stop-process.js';

const {
  seconds: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
} = readBenchSettings();
const EXPIRED_LINKS = numberFromEnv('BENCH_SWEEP_EXPIRED', 1_000_000);
const SEED_ROOT = process.env['BENCH_SEED_DIR'];
const LIVE_LINKS = 10_000;
const PATHS = 100_000;
const SEED_BATCH = 100_000;
const DAY_MS = 86_400_000;
/** The expired links expired between 50 and 40 days ago, past the 30-day grace. */
const EXPIRED_AGO_MS = 40 * DAY_MS;
const EXPIRY_SPREAD_MS = 10 * DAY_MS;
/** Each expired link lived this long (created_at = expires_at - this). */
const LINK_TTL_MS = 90 * DAY_MS;
const RECLAIM_GRACE = '30d';
const SWEEP_DELAY_MS = 1000;
/** wrk's -d during a sweep: only a bound; it is stopped when the sweep exits. */
const MAX_SWEEP_WINDOW_SECONDS = 3600;
const LIVE_CODES_FILE = 'live-codes.txt';
const ADMIN_KEY = 'hop_sweep_bench_admin_key_0123456789';
const FIRST_PORT = 18_590;
/** During a sweep, hop's /metrics is read this often: throughput and stalls over time. */
const SLICE_SECONDS = 10;
/** hop-creates: one create (POST /v1/links, admin key) at a time, started this often. */
const CREATE_INTERVAL_MS = 500;

interface ServerSpec {
  readonly name: 'hop' | 'hop-store' | 'hop-creates' | 'ceiling';
  readonly label: string;
  readonly port: number;
}

const ALL_SERVERS: readonly ServerSpec[] = [
  { name: 'hop', label: 'hop', port: FIRST_PORT },
  {
    name: 'hop-store',
    label: 'hop, L1 of 1 entry (every redirect reads SQLite)',
    port: FIRST_PORT + 1,
  },
  {
    name: 'hop-creates',
    label: `hop, ${1000 / CREATE_INTERVAL_MS} creates/s alongside`,
    port: FIRST_PORT + 2,
  },
  { name: 'ceiling', label: 'ceiling', port: FIRST_PORT + 3 },
];
const wanted = (process.env['BENCH_SWEEP_SERVERS'] ?? 'hop,hop-store,hop-creates,ceiling').split(
  ',',
);
const SERVERS = ALL_SERVERS.filter((server) => wanted.includes(server.name));
if (SERVERS.length === 0)
  throw new Error('BENCH_SWEEP_SERVERS names none of hop, hop-store, hop-creates, ceiling');

/** One `hop sweep` run, from its output and from watching it. */
interface SweepRun {
  /** Its report line, as printed. */
  readonly line: string;
  readonly expired: number;
  readonly reclaimed: number;
  readonly purged: number;
  readonly batches: number;
  /** The duration it reports (runSweep alone). */
  readonly reportedMs: number;
  /** Spawn to exit: node's start, opening the store, the sweep, closing (a checkpoint). */
  readonly wallMs: number;
  /** The largest hop.db-wal seen, polled every 100 ms. */
  readonly maxWalMb: number;
  /** CPU it used (user + system), last sampled at most 100 ms before it exited. */
  readonly cpuSeconds: number;
}

/** One measured window of load against one server. */
interface Window {
  readonly scenario: 'no sweep' | 'during hop sweep';
  readonly server: ServerSpec;
  readonly report: DriverReport;
  readonly seconds: number;
  /** hop only: the window in slices (one for a window without a sweep). */
  readonly slices: readonly Slice[];
  /** hop only: redirects answered from L1, and from a store read, in the window. */
  readonly l1Hits: number | null;
  readonly storeReads: number | null;
  /** hop only: the mean time hop took to answer a redirect that read the store, ms. */
  readonly storeReadMs: number | null;
  /** CPU the server process used per second of the window (all its threads). */
  readonly serverCpu: number;
  /** CPU wrk used per second of the window: near 1, wrk was the limit. */
  readonly loadCpu: number;
  /** CPU per second used by processes not ours: another bench on the machine. */
  readonly othersCpu: number;
  /** The share of the window's CPU time the VM's host took. */
  readonly stealPercent: number;
  readonly sweep: SweepRun | null;
  /** hop-creates only: the creates made during the window. */
  readonly creates: CreateStats | null;
}

interface CreateStats {
  /** Latency of each create answered 201, ms. */
  readonly latencies: readonly number[];
  /** Creates answered otherwise, or not at all. */
  readonly failed: number;
}

/** SLICE_SECONDS of a hop window, from its /metrics. */
interface Slice {
  readonly seconds: number;
  /** Redirects hop answered (from L1, L2 or the store) per second. */
  readonly redirectsPerSecond: number;
  /** The largest event-loop delay (prom-client, 10 ms sampling; reset by each read). */
  readonly lagMaxMs: number;
}

interface StoreCounts {
  readonly rows: number;
  readonly active: number;
}

/** Per server, the messages hop logged at warn or above. */
const warningsOf = new Map<string, string[]>();
const dir = mkdtempSync(join(tmpdir(), 'hop-sweep-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

// 1. Build, and seed (or reuse) the store every sweep starts from.
buildHop(ROOT);
const template = prepareTemplate();
const seeded = countRows(template.dataDir);
const liveCodes = readFileSync(template.liveCodesFile, 'utf8').trim().split('\n');
const pathsFile = join(dir, 'live.paths');
writeFileSync(
  pathsFile,
  Array.from(
    { length: PATHS },
    () => `/${liveCodes[Math.floor(Math.random() * liveCodes.length)]}`,
  ).join('\n') + '\n',
);
process.stderr.write(
  `sweep bench: store of ${seeded.rows} links (${EXPIRED_LINKS} expired, ${LIVE_LINKS} live) in ${template.dataDir}\n`,
);

// 2. The sweep alone, nothing else running: its duration without load.
const aloneDir = join(dir, 'alone');
copyStore(template.dataDir, aloneDir);
const alone = await runSweepProcess(aloneDir);
const aloneAfter = countRows(aloneDir);
rmSync(aloneDir, { recursive: true, force: true });
progress(`sweep alone: ${alone.line}`);

// 3. Per server: no sweep, then during a sweep, each sweep on a fresh copy.
const windows: Window[] = [];
const after = new Map<string, StoreCounts>();
const rss = new Map<string, number>();
for (const server of SERVERS) {
  const dataDir = join(dir, server.name);
  copyStore(template.dataDir, dataDir);
  const child = (await startSweepServer(server, dataDir)).child;
  try {
    await startLoad(server.port, WARMUP_SECONDS).report;
    windows.push(await measure(server, child, null));
    windows.push(await measure(server, child, dataDir));
    if (server.name !== 'ceiling') rss.set(server.name, residentMb(child.pid ?? 0));
  } finally {
    await stopProcess(child);
  }
  after.set(server.name, countRows(dataDir));
  rmSync(dataDir, { recursive: true, force: true });
  progress(`${server.name} done`);
}

// 4. Report.
const lines = [
  '| scenario | server | req/s | p50 ms | p80 ms | p99 ms | errors | non-2xx/3xx | window s | hop redirects/s, slowest 10 s | hop event-loop delay max ms, worst / median 10 s | hop redirects from L1 / store | hop store read mean ms | server CPU s/s | wrk CPU s/s | other processes CPU s/s | steal % |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const w of windows) {
  const r = w.report;
  const reads = w.l1Hits === null || w.storeReads === null ? '' : `${w.l1Hits} / ${w.storeReads}`;
  const lags = w.slices.map((slice) => slice.lagMaxMs);
  const slowest = Math.min(...w.slices.map((slice) => slice.redirectsPerSecond));
  const hopColumns =
    w.slices.length === 0
      ? '| | '
      : `| ${slowest.toFixed(0)} | ${Math.max(...lags).toFixed(1)} / ${median(lags).toFixed(1)} `;
  lines.push(
    `| ${w.scenario} | ${w.server.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p80.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${r.non2xx3xx} | ${w.seconds.toFixed(1)} ${hopColumns}| ${reads} | ${w.storeReadMs === null ? '' : w.storeReadMs.toFixed(3)} | ${w.serverCpu.toFixed(2)} | ${w.loadCpu.toFixed(2)} | ${w.othersCpu.toFixed(2)} | ${w.stealPercent.toFixed(1)} |`,
  );
}
const during = windows.filter((w) => w.sweep !== null);
const errors = during.reduce((sum, w) => sum + w.report.errors, 0);
const non2xx3xx = during.reduce((sum, w) => sum + w.report.non2xx3xx, 0);
const ratios = SERVERS.map((server) => {
  const base = windows.find((w) => w.server === server && w.sweep === null);
  const swept = windows.find((w) => w.server === server && w.sweep !== null);
  if (base === undefined || swept === undefined) return '';
  return `${server.label}: req/s ${((100 * swept.report.rps) / base.report.rps).toFixed(0)}% of no sweep, p99 ${(swept.report.p99 / base.report.p99).toFixed(2)}×`;
}).filter((text) => text !== '');
const describeSweep = (name: string, sweep: SweepRun, counts: StoreCounts | undefined) =>
  `${name}: ${(sweep.wallMs / 1000).toFixed(1)} s from spawn to exit (its own report: ${(sweep.reportedMs / 1000).toFixed(1)} s), ${sweep.expired} marked expired, ${sweep.reclaimed} rows reclaimed, ${sweep.purged} idempotency records purged, ${sweep.batches} batches; WAL peaked at ${sweep.maxWalMb.toFixed(0)} MB; the sweep process used ≈${sweep.cpuSeconds.toFixed(1)} s of CPU${counts === undefined ? '' : `; the store then held ${counts.rows} links (${counts.active} active)`}. Printed: \`${sweep.line}\``;
const seeding =
  template.seedSeconds === null
    ? `store reused from ${template.dataDir}`
    : `seeded in ${template.seedSeconds.toFixed(1)} s`;
const report = [
  `## sweep: ${new Date().toISOString()}`,
  '',
  `Command: \`npm run bench -- sweep\` (BENCH_SECONDS=${SECONDS}, BENCH_WARMUP_SECONDS=${WARMUP_SECONDS}, BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_SWEEP_EXPIRED=${EXPIRED_LINKS}; ${seeded.rows} links: ${EXPIRED_LINKS} active links expired 40–50 days ago and ${LIVE_LINKS} live ones, written with better-sqlite3 after \`hop migrate\`, ${seeding}).`,
  `Machine: ${describeMachine()}. Servers pinned to core ${SERVER_CORE}; wrk (1 thread, ${CONNECTIONS} connections, bench/paths.lua, ${PATHS} paths drawn uniformly from the ${LIVE_LINKS} live codes) and \`hop sweep\` (\`node dist/cli/hop.js sweep\`, a separate process on the same data dir, HOP_RECLAIM_GRACE=${RECLAIM_GRACE}, default batch of 1000) pinned to core ${LOAD_CORE}, so the sweep takes its CPU from wrk, not from the server.`,
  `hop: \`node dist/cli/hop.js serve\`, HOP_ANALYTICS=off, HOP_SWEEP_INTERVAL=0, HOP_L1_MAX_ENTRIES=100000 (all live links in L1 after the warm-up) or 1 (every redirect reads SQLite); hop with creates alongside is the first hop plus a create (POST /v1/links, admin key, random codes) sent from this process every ${CREATE_INTERVAL_MS} ms, one at a time, through both windows: a writer that needs SQLite's write lock, which the sweep takes once per batch. no sweep: ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up. during hop sweep: wrk started, \`hop sweep\` started ${SWEEP_DELAY_MS / 1000} s later on the server's data dir (for the ceiling, on a copy nobody serves), wrk stopped when the sweep exited; each sweep on its own fresh copy of the store.`,
  `errors: wrk socket errors and timeouts (2 s); non-2xx/3xx: answers with status > 399 (every request is a live code, so each should be a 302). hop's columns come from its /metrics, read before and after each window and, during a sweep, every ${SLICE_SECONDS} s (a window without a sweep is one slice): redirects/s of the slowest slice; event-loop delay max (hop_nodejs_eventloop_lag_max_seconds, which each read resets; it includes the 10 ms sampling interval), of the worst slice and the median slice. hop redirects from L1 / store, and hop store read mean (hop's own time from request to answer for a redirect that read SQLite): hop_redirect_duration_seconds by outcome, after minus before. server CPU: user + system seconds of the server process (all its threads, the WAL checkpoint worker included) per second of the window; wrk CPU the same for wrk (near 1: wrk, not the server, set the pace). other processes CPU: the machine's user + system time (/proc/stat, both cores; interrupt time not included) less that of the server, wrk, the sweep and this bench, per second: anything else running (another bench) competes for the two cores. steal: the share of the machine's time its VM host took.`,
  `Redirect errors during the sweeps: ${errors} socket errors/timeouts, ${non2xx3xx} non-2xx/3xx (target 0: ${errors + non2xx3xx === 0 ? 'met' : 'NOT met'}).`,
  `During the sweep, against no sweep: ${ratios.join('; ')}.`,
  `Sweeps: ${[
    describeSweep('alone (no load, nothing else running)', alone, aloneAfter),
    ...during.map((w) =>
      describeSweep(`during load on ${w.server.label}`, w.sweep!, after.get(w.server.name)),
    ),
  ].join(' ')}`,
  ...windows
    .filter((w) => w.creates !== null)
    .map((w) => `Creates, ${w.scenario}: ${describeCreates(w.creates!)}.`),
  `hop log lines at warn or above: ${
    [...warningsOf]
      .filter(([name]) => name !== 'ceiling')
      .map(
        ([name, found]) =>
          `${name} ${found.length}${found.length === 0 ? '' : ` (${found.slice(0, 3).join(' ')})`}`,
      )
      .join('; ') || 'none'
  }.`,
  ...(rss.size === 0
    ? []
    : [
        `hop resident memory at the end: ${[...rss].map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}.`,
      ]),
  '',
  ...lines,
  '',
].join('\n');
publishReport(report);
process.exit(0);

/** The seeded store: in the run's folder, or kept in BENCH_SEED_DIR and reused. */
function prepareTemplate(): { dataDir: string; liveCodesFile: string; seedSeconds: number | null } {
  if (SEED_ROOT === undefined) {
    const dataDir = join(dir, 'template');
    return { dataDir, ...seed(dataDir) };
  }
  const dataDir = join(resolve(SEED_ROOT), `sweep-${EXPIRED_LINKS}-${LIVE_LINKS}`);
  const liveCodesFile = join(dataDir, LIVE_CODES_FILE);
  if (existsSync(liveCodesFile) && existsSync(join(dataDir, 'hop.db'))) {
    return { dataDir, liveCodesFile, seedSeconds: null };
  }
  // Seeded aside and renamed into place when complete, as bench/support/seeded-store.ts does.
  const partial = `${dataDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  let seedSeconds: number;
  try {
    ({ seedSeconds } = seed(partial));
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(partial, dataDir);
  return { dataDir, liveCodesFile, seedSeconds };
}

/**
 * `hop migrate` makes the schema (SqliteStore.open, as every hop command); the rows are
 * then written straight into it, in transactions of SEED_BATCH with a 1 GiB page cache:
 * the expired links, soonest expiry first, then the live ones.
 */
function seed(dataDir: string): { liveCodesFile: string; seedSeconds: number } {
  const started = performance.now();
  mkdirSync(dataDir, { recursive: true });
  execFileSync(process.execPath, ['dist/cli/hop.js', 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, HOP_DATA_DIR: dataDir, HOP_ANALYTICS: 'off' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  const live: string[] = [];
  try {
    db.pragma('cache_size = -1048576');
    db.pragma('synchronous = OFF');
    const insert = db.prepare<[string, string, string, number, number, number | null]>(
      `INSERT INTO links (id, code, owner, destination, status_code, state, custom, title, tags,
         created_at, updated_at, expires_at, deleted_at, version)
       VALUES (?, ?, 'seed', ?, 302, 'active', 0, NULL, '[]', ?, ?, ?, NULL, 1)`,
    );
    type Row = [string, string, string, number, number, number | null];
    const insertAll = db.transaction((rows: readonly Row[]) => {
      for (const row of rows) insert.run(...row);
    });
    const now = Date.now();
    const nextId = monotonicFactory();
    const taken = new Set<string>();
    const total = EXPIRED_LINKS + LIVE_LINKS;
    let batch: Row[] = [];
    for (let i = 0; i < total; i++) {
      let code = randomCode();
      while (taken.has(code)) code = randomCode();
      taken.add(code);
      const expiresAt =
        i < EXPIRED_LINKS
          ? now -
            EXPIRED_AGO_MS -
            Math.floor(((EXPIRED_LINKS - i) * EXPIRY_SPREAD_MS) / EXPIRED_LINKS)
          : null;
      const createdAt = expiresAt === null ? now - DAY_MS : expiresAt - LINK_TTL_MS;
      if (expiresAt === null) live.push(code);
      batch.push([
        nextId(createdAt),
        code,
        `https://seed.example/${i}`,
        createdAt,
        createdAt,
        expiresAt,
      ]);
      if (batch.length === SEED_BATCH || i === total - 1) {
        insertAll(batch);
        batch = [];
        process.stderr.write(`\rseeded ${i + 1}/${total}`);
      }
    }
    process.stderr.write('\n');
    const due = db
      .prepare<[number], number>(
        "SELECT count(*) FROM links WHERE state = 'active' AND expires_at <= ?",
      )
      .pluck()
      .get(now - EXPIRED_AGO_MS);
    if (due !== EXPIRED_LINKS) throw new Error(`seeded ${due} expired links, not ${EXPIRED_LINKS}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const liveCodesFile = join(dataDir, LIVE_CODES_FILE);
  writeFileSync(liveCodesFile, live.join('\n') + '\n');
  return { liveCodesFile, seedSeconds: (performance.now() - started) / 1000 };
}

/** The store's databases into `toDir` (the template is closed: no WAL beside it). */
function copyStore(fromDir: string, toDir: string): void {
  mkdirSync(toDir, { recursive: true });
  for (const file of ['hop.db', 'clicks.db']) {
    if (existsSync(join(fromDir, file))) copyFileSync(join(fromDir, file), join(toDir, file));
  }
}

function countRows(dataDir: string): StoreCounts {
  // Read-write, as bench/support/seeded-store.ts explains: nothing else has the file open now.
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    const row = db
      .prepare<[], { rows: number; active: number | null }>(
        "SELECT count(*) AS rows, sum(state = 'active') AS active FROM links",
      )
      .get()!;
    return { rows: row.rows, active: row.active ?? 0 };
  } finally {
    db.close();
  }
}

/**
 * One window of load. With `sweepDir`, `hop sweep` starts SWEEP_DELAY_MS after wrk, on
 * that data dir, and wrk is stopped when it exits; else wrk runs SECONDS. A hop's
 * /metrics is read before and after, and during a sweep every SLICE_SECONDS too.
 */
async function measure(
  server: ServerSpec,
  child: ChildProcess,
  sweepDir: string | null,
): Promise<Window> {
  const isHop = server.name !== 'ceiling';
  const before = isHop ? await scrapeMetrics(server.port) : null;
  const cpu = new CpuWindow<'server' | 'load' | 'sweep'>(['server', 'load', 'sweep']);
  cpu.track('server', child.pid);
  const started = performance.now();
  const load = startLoad(server.port, sweepDir === null ? SECONDS : MAX_SWEEP_WINDOW_SECONDS);
  cpu.track('load', load.child.pid, true);
  const creates = server.name === 'hop-creates' ? startCreates(server.port) : null;
  const slices: Slice[] = [];
  let last = { text: before, at: started };
  const stopSlicing = new AbortController();
  const slicing =
    before === null || sweepDir === null
      ? Promise.resolve()
      : (async () => {
          for (;;) {
            try {
              await sleep(SLICE_SECONDS * 1000, undefined, { signal: stopSlicing.signal });
            } catch {
              return;
            }
            const text = await scrapeMetrics(server.port);
            const at = performance.now();
            slices.push(sliceOf(last.text!, text, (at - last.at) / 1000));
            last = { text, at };
          }
        })();
  let sweep: SweepRun | null = null;
  if (sweepDir !== null) {
    try {
      await sleep(SWEEP_DELAY_MS);
      sweep = await runSweepProcess(sweepDir, (pid) => cpu.track('sweep', pid, true));
    } finally {
      // wrk stops on SIGINT and prints its figures for the time it ran.
      load.child.kill('SIGINT');
    }
  }
  const report = await load.report;
  const seconds = (performance.now() - started) / 1000;
  const createStats = creates === null ? null : await creates.stop();
  const usage = cpu.stop();
  stopSlicing.abort();
  await slicing;
  const afterText = isHop ? await scrapeMetrics(server.port) : null;
  if (afterText !== null && last.text !== null) {
    const at = performance.now();
    // The last, partial slice, unless too short to say anything.
    if (at - last.at >= 2000) slices.push(sliceOf(last.text, afterText, (at - last.at) / 1000));
  }
  const delta = (name: string) =>
    before === null || afterText === null
      ? null
      : metricValue(afterText, name) - metricValue(before, name);
  const result: Window = {
    scenario: sweepDir === null ? 'no sweep' : 'during hop sweep',
    server,
    report,
    seconds,
    slices,
    l1Hits: delta('hop_redirect_duration_seconds_count{outcome="l1"}'),
    storeReads: delta('hop_redirect_duration_seconds_count{outcome="store"}'),
    storeReadMs: meanMs(
      delta('hop_redirect_duration_seconds_sum{outcome="store"}'),
      delta('hop_redirect_duration_seconds_count{outcome="store"}'),
    ),
    serverCpu: usage.groups.server,
    loadCpu: usage.groups.load,
    othersCpu: usage.others,
    stealPercent: usage.stealPercent,
    sweep,
    creates: createStats,
  };
  process.stderr.write(
    `${server.name} ${result.scenario}: ${report.rps.toFixed(0)} req/s, p99 ${report.p99.toFixed(2)} ms, errors ${report.errors}, non-2xx/3xx ${report.non2xx3xx}, other processes ${result.othersCpu.toFixed(2)} CPU s/s${sweep === null ? '' : `; ${sweep.line}`}\n`,
  );
  return result;
}

/** Creates through hop's API, one at a time, every CREATE_INTERVAL_MS, until stopped. */
function startCreates(port: number): { stop(): Promise<CreateStats> } {
  const latencies: number[] = [];
  let failed = 0;
  let stopped = false;
  let next = 0;
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/links`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ destination: `https://sweep.example/${process.pid}/${next++}` }),
        });
        await response.arrayBuffer();
        if (response.status === 201) latencies.push(performance.now() - started);
        else failed++;
      } catch {
        failed++;
      }
      const wait = CREATE_INTERVAL_MS - (performance.now() - started);
      if (wait > 0) await sleep(wait);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await running;
      return { latencies, failed };
    },
  };
}

/** A slice of a window, from two reads of a hop's /metrics. */
function sliceOf(before: string, after: string, seconds: number): Slice {
  const count = (text: string) =>
    ['l1', 'l2', 'store'].reduce(
      (sum, outcome) =>
        sum + metricValue(text, `hop_redirect_duration_seconds_count{outcome="${outcome}"}`),
      0,
    );
  return {
    seconds,
    redirectsPerSecond: (count(after) - count(before)) / seconds,
    lagMaxMs: 1000 * metricValue(after, 'hop_nodejs_eventloop_lag_max_seconds'),
  };
}

/** `hop sweep` on the load core, on `dataDir`; its WAL and CPU watched while it runs. */
function runSweepProcess(
  dataDir: string,
  onStart: (pid: number | undefined) => void = () => undefined,
): Promise<SweepRun> {
  const [file, ...args] = pin(LOAD_CORE, [process.execPath, 'dist/cli/hop.js', 'sweep']);
  const started = performance.now();
  const child = spawn(file!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      HOP_DATA_DIR: dataDir,
      HOP_ANALYTICS: 'off',
      HOP_RECLAIM_GRACE: RECLAIM_GRACE,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackProcess(child);
  onStart(child.pid);
  let output = '';
  let errorOutput = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errorOutput += chunk.toString()));
  const wal = join(dataDir, 'hop.db-wal');
  let maxWal = 0;
  let cpu = 0;
  const watch = setInterval(() => {
    maxWal = Math.max(maxWal, statSync(wal, { throwIfNoEntry: false })?.size ?? 0);
    cpu = Math.max(cpu, cpuSeconds(child.pid ?? 0));
  }, 100);
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      const wallMs = performance.now() - started;
      const line = output.trim();
      const match =
        /: (\d+) expired, (\d+) reclaimed, (\d+) idempotency records purged \((\d+) batches, (\d+) ms\)/.exec(
          line,
        );
      if (code !== 0 || match === null) {
        reject(new Error(`hop sweep exited with ${code}:\n${output}${errorOutput}`));
        return;
      }
      resolvePromise({
        line,
        expired: Number(match[1]),
        reclaimed: Number(match[2]),
        purged: Number(match[3]),
        batches: Number(match[4]),
        reportedMs: Number(match[5]),
        wallMs,
        maxWalMb: maxWal / 2 ** 20,
        cpuSeconds: cpu,
      });
    });
  });
}

/** wrk on the load core; its report once it exits (after -d, or on SIGINT). */
function startLoad(port: number, seconds: number): LoadRun {
  return startWrk({
    root: ROOT,
    port,
    connections: CONNECTIONS,
    seconds,
    script: 'bench/paths.lua',
    scriptArgs: [pathsFile],
  });
}

function startSweepServer(server: ServerSpec, dataDir: string): Promise<Server> {
  const isCeiling = server.name === 'ceiling';
  const starting = startServer({
    name: server.name,
    port: server.port,
    command: isCeiling
      ? ceilingCommand(template.liveCodesFile, server.port)
      : compiledHopCommand('serve'),
    ready: isCeiling ? CEILING_READY : HOP_READY,
    env: {
      ...process.env,
      HOP_HOST: '127.0.0.1',
      HOP_PORT: String(server.port),
      HOP_DATA_DIR: dataDir,
      HOP_LOG_LEVEL: 'info',
      HOP_ANALYTICS: 'off',
      HOP_SWEEP_INTERVAL: '0',
      HOP_RECLAIM_GRACE: RECLAIM_GRACE,
      HOP_CREATE_RATE: 'off',
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_L1_MAX_ENTRIES: server.name === 'hop-store' ? '1' : '100000',
    },
  });
  return starting.then((started) => {
    warningsOf.set(server.name, started.warnings);
    return started;
  });
}

function describeCreates(creates: CreateStats): string {
  const sorted = [...creates.latencies].sort((x, y) => x - y);
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return `${sorted.length} answered 201 (p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms), ${creates.failed} failed`;
}

function meanMs(seconds: number | null, count: number | null): number | null {
  return seconds === null || count === null || count === 0 ? null : (1000 * seconds) / count;
}

function randomCode(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let code = '';
  for (let i = 0; i < 7; i++) code += alphabet.charAt(Math.floor(Math.random() * 62));
  return code;
}
