/**
 * The `scanner` scenario of bench/run-bench.ts (SPEC §7, ADR 0080): visitors' redirect throughput
 * while a code scanner floods 404s from another address, against no scanner, in one run.
 *
 * Visitors are hot's load: wrk, closed loop, from 127.0.0.1. The scanner is a process of
 * its own, bench/scanner-load.ts, on the load core beside wrk, asking for random codes
 * from 127.0.0.2 at a fixed rate (open loop). Rows, each driven in every round, the order
 * rotated from round to round so drift falls on all of them:
 *
 * - hop (a hop of this scenario's own, throttling at its defaults), no scanner;
 * - the same hop with the scanner: past HOP_SCANNER_THRESHOLD misses a minute the scanner
 *   is answered 429 from memory for HOP_SCANNER_COOLDOWN;
 * - a second hop of its own with HOP_SCANNER_THRESHOLD=0 (no throttling), with the
 *   scanner: every scanner request is looked up and answered 404;
 * - that second hop without the scanner, so the throttling-off pair compares within one
 *   process as the throttled pair does;
 * - the ceiling (bare node:http), no scanner.
 *
 * Both hops run on their own copies of the store, started by the caller's functions (with
 * HOP_KNOWN_CODES=off on both when the caller asks: then an unknown code costs a store read
 * unless its client is throttled). Around each measured window of a hop row its /metrics
 * are read, for the L1 misses, the reads the known-codes filter skipped and the store reads
 * in that window.
 *
 * Every row is warmed with its own load (scanner included) first. During the warm-up of
 * the throttled row the scanner passes the threshold and is throttled; its cool-down
 * (10 min by default) outlasts the scenario, so in the measured windows it is answered
 * 429 throughout. Around each measured window: the hop's CPU, the two cores' busy time
 * (all processes, the kernel's loopback work included) and steal, from /proc, so that a
 * load core saturated by wrk and the scanner together would show.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { DriverReport } from './support/driver-report.js';
import { LOAD_CORE, pin, SERVER_CORE } from './support/pin-to-core.js';
import { childPids, CpuWindow } from './support/cpu-window.js';
import { residentMb } from './support/process-memory.js';
import type { ScannerReport } from './scanner-load.js';
import { stopProcess } from './support/stop-process.js';

/** How long the scanner floods before a measured window starts, so it is at its rate. */
const SCANNER_LEAD_MS = 1_000;

export type ScannerRowName =
  | 'hop, no scanner'
  | 'hop, scanner'
  | 'hop throttling off, scanner'
  | 'hop throttling off, no scanner'
  | 'ceiling, no scanner';

export interface ScannerScenarioOptions {
  readonly root: string;
  readonly seconds: number;
  readonly rounds: number;
  readonly warmupSeconds: number;
  /** Scanner requests offered per second, and over how many connections. */
  readonly scannerRate: number;
  readonly scannerConnections: number;
  /** Its source address: not the visitors' 127.0.0.1. */
  readonly scannerAddress: string;
  readonly ceiling: { readonly port: number; readonly process: ChildProcess };
  /** The hop throttling scanners (its defaults, or HOP_SCANNER_* as given), on this port. */
  readonly throttled: HopStarter;
  /** The hop with HOP_SCANNER_THRESHOLD=0. */
  readonly throttlingOff: HopStarter;
  /** Whether both hops keep the known-codes filter (HOP_KNOWN_CODES), for the report. */
  readonly knownCodes: boolean;
  /** Visitors' load against a port for some seconds (hot's load, closed loop). */
  readonly visitors: (port: number, seconds: number) => Promise<DriverReport>;
}

/** A hop the scenario starts (and stops) itself, on a port of its own. */
export interface HopStarter {
  readonly port: number;
  readonly start: () => Promise<ChildProcess>;
}

/** One measured window of one row. */
export interface ScannerRun {
  readonly visitors: DriverReport;
  readonly scanner: ScannerReport | null;
  /** CPU seconds per second of the server the row drives (hop or ceiling). */
  readonly serverCpu: number;
  /** The same for the load generators, wrk and the scanner together. */
  readonly loadCpu: number;
  /**
   * CPU (all cores, user and system) of everything else on the machine but this process:
   * the idle servers, and any other work that ran meanwhile.
   */
  readonly othersCpu: number;
  /** Busy share of each core (user, system, irq, softirq), % of the window. */
  readonly serverCoreBusy: number;
  readonly loadCoreBusy: number;
  readonly stealPercent: number;
  /** A hop row's redirect counters over the window (null for the ceiling). */
  readonly reads: ReadCounts | null;
}

/** Changes of a hop's redirect counters over a measured window, and its length. */
export interface ReadCounts {
  readonly seconds: number;
  /** hop_l1_requests_total{result="miss"}: lookups of possible codes past L1. */
  readonly l1Misses: number;
  /** hop_redirect_reads_skipped_total: unknown codes the known-codes filter answered. */
  readonly skipped: number;
  /** hop_coalesced_reads_total: misses that joined a read already in flight. */
  readonly coalesced: number;
}

export interface ScannerScenarioResult {
  readonly runs: Readonly<Record<ScannerRowName, readonly ScannerRun[]>>;
  readonly rowsInOrder: readonly ScannerRowName[];
  readonly hopRssMb: number;
  readonly throttlingOffRssMb: number;
  readonly knownCodes: boolean;
  /** The throttled hop's scanner counters from /metrics after the scenario. */
  readonly metrics: ScannerMetrics;
  readonly throttlingOffMetrics: ScannerMetrics;
  /** The scanner's counts while warming the throttled row (when it got throttled). */
  readonly warmupScanner: ScannerReport | null;
}

export interface ScannerMetrics {
  readonly throttlesTotal: number | null;
  readonly refusedTotal: number | null;
  readonly clientsThrottled: number | null;
  readonly l1Misses: number | null;
  readonly readsSkipped: number | null;
  readonly coalescedReads: number | null;
  readonly falsePositives: number | null;
}

export async function runScannerScenario(
  options: ScannerScenarioOptions,
): Promise<ScannerScenarioResult> {
  const onHop = await options.throttled.start();
  const offHop = await options.throttlingOff.start();
  const onPort = options.throttled.port;
  const offPort = options.throttlingOff.port;
  const rows: {
    name: ScannerRowName;
    port: number;
    pid: number;
    scanner: boolean;
    hop: boolean;
  }[] = [
    { name: 'hop, no scanner', port: onPort, pid: pidOf(onHop), scanner: false, hop: true },
    { name: 'hop, scanner', port: onPort, pid: pidOf(onHop), scanner: true, hop: true },
    {
      name: 'hop throttling off, scanner',
      port: offPort,
      pid: pidOf(offHop),
      scanner: true,
      hop: true,
    },
    {
      name: 'hop throttling off, no scanner',
      port: offPort,
      pid: pidOf(offHop),
      scanner: false,
      hop: true,
    },
    {
      name: 'ceiling, no scanner',
      port: options.ceiling.port,
      pid: pidOf(options.ceiling.process),
      scanner: false,
      hop: false,
    },
  ];
  const runs = Object.fromEntries(rows.map((row) => [row.name, [] as ScannerRun[]])) as Record<
    ScannerRowName,
    ScannerRun[]
  >;
  const measure = async (row: (typeof rows)[number], seconds: number): Promise<ScannerRun> => {
    const scanner = row.scanner ? await startScanner(options, row.port) : null;
    try {
      const servers = new Set(rows.map((r) => r.pid));
      const cpu = new CpuWindow<'server' | 'load'>(['server', 'load']);
      cpu.track('server', row.pid);
      // wrk and the scanner: run-bench's children that are not servers (wrk from zero).
      cpu.watch('load', () => childPids(process.pid).filter((pid) => !servers.has(pid)));
      const countersBefore = row.hop ? await readScannerMetrics(row.port) : null;
      const countersAt = performance.now();
      const coresBefore = coreTimes();
      scanner?.mark();
      const visitors = await options.visitors(row.port, seconds);
      const scannerReport = scanner === null ? null : await scanner.stop();
      const used = cpu.stop();
      const cores = coreTimes();
      const countersAfter = countersBefore === null ? null : await readScannerMetrics(row.port);
      const reads =
        countersBefore === null || countersAfter === null
          ? null
          : readCounts(countersBefore, countersAfter, (performance.now() - countersAt) / 1000);
      const busy = (core: number) => {
        const before = coresBefore[core];
        const after = cores[core];
        if (before === undefined || after === undefined) return 0;
        return (100 * (after.busy - before.busy)) / Math.max(1, after.total - before.total);
      };
      const steal = (core: number) => {
        const before = coresBefore[core];
        const after = cores[core];
        if (before === undefined || after === undefined) return 0;
        return (100 * (after.steal - before.steal)) / Math.max(1, after.total - before.total);
      };
      return {
        visitors,
        scanner: scannerReport,
        serverCpu: used.groups.server,
        loadCpu: used.groups.load,
        othersCpu: used.others,
        serverCoreBusy: busy(SERVER_CORE),
        loadCoreBusy: busy(LOAD_CORE),
        stealPercent: (steal(SERVER_CORE) + steal(LOAD_CORE)) / 2,
        reads,
      };
    } finally {
      scanner?.kill();
    }
  };

  let warmupScanner: ScannerReport | null = null;
  for (const row of rows) {
    const warm = await measure(row, options.warmupSeconds);
    if (row.name === 'hop, scanner') warmupScanner = warm.scanner;
  }
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(i + round) % rows.length] as (typeof rows)[number];
      runs[row.name].push(await measure(row, options.seconds));
      process.stderr.write(`scanner: round ${round + 1}, ${row.name} done\n`);
    }
  }
  const result: ScannerScenarioResult = {
    runs,
    rowsInOrder: rows.map((row) => row.name),
    hopRssMb: residentMb(pidOf(onHop)),
    throttlingOffRssMb: residentMb(pidOf(offHop)),
    knownCodes: options.knownCodes,
    metrics: await readScannerMetrics(onPort),
    throttlingOffMetrics: await readScannerMetrics(offPort),
    warmupScanner,
  };
  await Promise.all([stopProcess(onHop), stopProcess(offHop)]);
  return result;
}

function readCounts(before: ScannerMetrics, after: ScannerMetrics, seconds: number): ReadCounts {
  const change = (pick: (m: ScannerMetrics) => number | null) =>
    (pick(after) ?? 0) - (pick(before) ?? 0);
  return {
    seconds,
    l1Misses: change((m) => m.l1Misses),
    skipped: change((m) => m.readsSkipped),
    coalesced: change((m) => m.coalescedReads),
  };
}

interface ScannerHandle {
  /** Starts the measured window. */
  mark(): void;
  /** Ends it; resolves with the scanner's report, once it has exited. */
  stop(): Promise<ScannerReport>;
  kill(): void;
}

/** bench/scanner-load.ts on the load core, flooding, SCANNER_LEAD_MS past its start. */
async function startScanner(options: ScannerScenarioOptions, port: number): Promise<ScannerHandle> {
  const [file, ...args] = pin(LOAD_CORE, [
    process.execPath,
    '--import',
    'tsx',
    'bench/scanner-load.ts',
    '--url',
    `http://127.0.0.1:${port}`,
    '--rate',
    String(options.scannerRate),
    '--connections',
    String(options.scannerConnections),
    '--local-address',
    options.scannerAddress,
  ]);
  const child = spawn(file as string, args, {
    cwd: options.root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const nextLine = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => {
        reject(new Error(`scanner-load exited with ${code}`));
      };
      child.once('exit', onExit);
      lines.once('line', (line) => {
        child.off('exit', onExit);
        resolve(line);
      });
    });
  const ready = await nextLine();
  if (ready !== 'ready') throw new Error(`scanner-load said ${ready}, not ready`);
  await new Promise((resolve) => setTimeout(resolve, SCANNER_LEAD_MS));
  return {
    mark: () => child.stdin?.write('mark\n'),
    stop: async () => {
      const reported = nextLine();
      child.stdin?.write('stop\n');
      const line = await reported;
      return JSON.parse(line) as ScannerReport;
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export async function readScannerMetrics(port: number): Promise<ScannerMetrics> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics on port ${port} answered ${response.status}`);
  const text = await response.text();
  const value = (name: string): number | null => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text);
    return match === null ? null : Number(match[1]);
  };
  return {
    throttlesTotal: value('hop_scanner_throttles_total'),
    refusedTotal: value('hop_scanner_refused_total'),
    clientsThrottled: value('hop_scanner_clients_throttled'),
    l1Misses: value('hop_l1_requests_total{result="miss"}'),
    readsSkipped: value('hop_redirect_reads_skipped_total'),
    coalescedReads: value('hop_coalesced_reads_total'),
    falsePositives: value('hop_known_codes_false_positives_total'),
  };
}

function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('a server has no pid');
  return child.pid;
}

/** Per core from /proc/stat, in ticks: busy (user, nice, system, irq, softirq), steal, all. */
function coreTimes(): { busy: number; steal: number; total: number }[] {
  const cores: { busy: number; steal: number; total: number }[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+) (.*)$/.exec(line);
    if (match === null) continue;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
      (match[2] ?? '').trim().split(/\s+/).map(Number);
    const busy = user + nice + system + irq + softirq;
    cores[Number(match[1])] = { busy, steal, total: busy + idle + iowait + steal };
  }
  return cores;
}

/** The report's lines for the scenario: what ran, the hop's counters, and the table. */
export function describeScannerScenario(
  result: ScannerScenarioResult,
  options: Pick<
    ScannerScenarioOptions,
    'rounds' | 'scannerRate' | 'scannerConnections' | 'scannerAddress'
  >,
  throttleSettings: string,
): string[] {
  const mean = (values: readonly number[]) =>
    values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const rps = (name: ScannerRowName) => mean(result.runs[name].map((run) => run.visitors.rps));
  const baseline: Readonly<Record<ScannerRowName, ScannerRowName>> = {
    'hop, no scanner': 'hop, no scanner',
    'hop, scanner': 'hop, no scanner',
    'hop throttling off, scanner': 'hop throttling off, no scanner',
    'hop throttling off, no scanner': 'hop throttling off, no scanner',
    'ceiling, no scanner': 'ceiling, no scanner',
  };
  const ceiling = rps('ceiling, no scanner');
  const pct = (value: number) => `${value.toFixed(0)}%`;
  const lines = [
    '| row | visitor req/s | p50 ms | p80 ms | p99 ms | visitor errors | of same server, no scanner | of ceiling | scanner answers/s | scanner 404s | scanner 429s | scanner other | L1 misses/s | reads skipped/s | store reads/s | server CPU s/s | wrk + scanner CPU s/s | scanner CPU s/s | others CPU s/s | core 0 busy % | core 1 busy % |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const name of result.rowsInOrder) {
    const runs = result.runs[name];
    const visitors = (pick: (report: DriverReport) => number) =>
      mean(runs.map((run) => pick(run.visitors)));
    const scanned = runs.flatMap((run) => (run.scanner === null ? [] : [run.scanner]));
    const other = sum(scanned.map((report) => sum(Object.values(report.other)) + report.failed));
    const scannerCells =
      scanned.length === 0
        ? ['', '', '', '']
        : [
            mean(scanned.map((report) => report.answeredPerSecond)).toFixed(0),
            String(sum(scanned.map((report) => report.notFound))),
            String(sum(scanned.map((report) => report.throttled))),
            String(other),
          ];
    const counted = runs.flatMap((run) => (run.reads === null ? [] : [run.reads]));
    const seconds = sum(counted.map((reads) => reads.seconds));
    const perSecond = (pick: (reads: ReadCounts) => number) =>
      (sum(counted.map(pick)) / seconds).toFixed(0);
    // Exact unless a throttled client's unknown codes were answered from memory with the
    // filter on: hop counts those as skipped reads, but not as L1 misses.
    const answeredFromMemory =
      result.knownCodes &&
      scanned.some((report) => report.throttled > 0 || sum(Object.values(report.other)) > 0);
    const readCells =
      counted.length === 0
        ? ['', '', '']
        : [
            perSecond((reads) => reads.l1Misses),
            perSecond((reads) => reads.skipped),
            answeredFromMemory
              ? '–'
              : perSecond((reads) => reads.l1Misses - reads.skipped - reads.coalesced),
          ];
    const cells = [
      name,
      visitors((r) => r.rps).toFixed(0),
      visitors((r) => r.p50).toFixed(2),
      visitors((r) => r.p80).toFixed(2),
      visitors((r) => r.p99).toFixed(2),
      visitors((r) => r.errors + r.non2xx3xx).toFixed(0),
      name === baseline[name] ? '' : pct((100 * rps(name)) / rps(baseline[name])),
      name === 'ceiling, no scanner' ? '' : pct((100 * rps(name)) / ceiling),
      ...scannerCells,
      ...readCells,
      mean(runs.map((run) => run.serverCpu)).toFixed(2),
      mean(runs.map((run) => run.loadCpu)).toFixed(2),
      scanned.length === 0 ? '' : mean(scanned.map((report) => report.cpuPerSecond)).toFixed(2),
      mean(runs.map((run) => run.othersCpu)).toFixed(2),
      mean(runs.map((run) => run.serverCoreBusy)).toFixed(0),
      mean(runs.map((run) => run.loadCoreBusy)).toFixed(0),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const allRuns = Object.values(result.runs).flat();
  const scannerRuns = allRuns.flatMap((run) => (run.scanner === null ? [] : [run.scanner]));
  const warm = result.warmupScanner;
  const metrics = (m: ScannerMetrics) =>
    `hop_scanner_throttles_total ${m.throttlesTotal ?? 'absent'}, hop_scanner_refused_total ${m.refusedTotal ?? 'absent'}, hop_scanner_clients_throttled ${m.clientsThrottled ?? 'absent'}, hop_l1_requests_total{result="miss"} ${m.l1Misses ?? 'absent'}, hop_redirect_reads_skipped_total ${m.readsSkipped ?? 'absent'}, hop_coalesced_reads_total ${m.coalescedReads ?? 'absent'}, hop_known_codes_false_positives_total ${m.falsePositives ?? 'absent'}`;
  const knownCodes = result.knownCodes
    ? 'Both hops keep the known-codes filter (HOP_KNOWN_CODES on, the default; BENCH_SCANNER_KNOWN_CODES on): an unknown code is answered 404 from memory, without a store read, throttled or not.'
    : "Both hops run with HOP_KNOWN_CODES=off (BENCH_SCANNER_KNOWN_CODES=off): every unknown code past L1 costs a store read, unless its client is throttled (a throttled client's codes are answered from memory, never read).";
  return [
    `scanner: visitors are hot's load from 127.0.0.1; the scanner is bench/scanner-load.ts, a process of its own on the load core beside wrk, offering ${options.scannerRate} req/s of random 7-character base62 codes over ${options.scannerConnections} keep-alive connections (one request in flight each, a shared backlog when all are busy) from ${options.scannerAddress}. Throttled hop: a hop started for this scenario with ${throttleSettings}; the throttling-off hop is a second one with HOP_SCANNER_THRESHOLD=0; each on its own copy of the store. ${knownCodes} Each row warmed with its own load first, then ${options.rounds} rounds of every row, the order rotated each round; the scanner starts ${SCANNER_LEAD_MS / 1000} s before each measured window and is counted over it. Per row: means over rounds, except the scanner's answer counts, which are totals over the ${options.rounds} windows ("other" is any other status plus requests lost with their connection).`,
    `scanner warm-up on the throttled hop, its first contact with it: ${describeWarmup(warm)}. Throttled hop's /metrics after the scenario: ${metrics(result.metrics)}. Throttling-off hop's: ${metrics(result.throttlingOffMetrics)}.`,
    `L1 misses/s, reads skipped/s and store reads/s: changes of the hop's hop_l1_requests_total{result="miss"}, hop_redirect_reads_skipped_total and hop_coalesced_reads_total, read from its /metrics just before and after each measured window (scanner on meanwhile), per second; store reads = L1 misses − reads skipped − coalesced reads (no L2 here)${result.knownCodes ? ', not shown (–) where a throttled scanner was answered from memory: hop counts the unknown codes it skips there as skipped reads but not as L1 misses' : ''}. They count the visitors' lookups as well as the scanner's.`,
    `CPU columns are seconds per second of the measured window: the row's server; wrk and the scanner (the load core's processes); the scanner alone, as it measures itself; others = every other process on the machine (the idle servers, and anything else that ran meanwhile; not the bench process itself). Core busy % counts user, system, irq and softirq time on that core, whoever it went to.`,
    `scanner backlog (due, unsent) at the end of each window: ${scannerRuns.map((report) => report.backlog).join(', ')}; steal over the windows ${mean(allRuns.map((run) => run.stealPercent)).toFixed(1)}% on average. Resident memory after the scenario: throttled hop ${result.hopRssMb.toFixed(0)} MB, throttling-off hop ${result.throttlingOffRssMb.toFixed(0)} MB.`,
    '',
    ...lines,
  ];
}

function describeWarmup(warm: ScannerReport | null): string {
  if (warm === null) return 'none';
  const first =
    warm.notFoundBeforeFirstThrottle === null
      ? 'it was never answered 429'
      : `its first 429 came after ${warm.notFoundBeforeFirstThrottle} answers 404`;
  return `${first}; in the ${SCANNER_LEAD_MS / 1000} s before the window ${warm.beforeWindow.notFound} answers 404 and ${warm.beforeWindow.throttled} 429, in the ${warm.seconds.toFixed(1)} s window ${warm.notFound} 404 and ${warm.throttled} 429`;
}
