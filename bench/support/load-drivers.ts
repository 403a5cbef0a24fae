import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseReport, type DriverReport } from './driver-report.js';
import { LOAD_CORE, pin } from './pin-to-core.js';
import { trackProcess } from './servers.js';

/** Closed-loop drivers: each connection sends its next request when the last is answered. */
type ClosedLoopDriver = 'wrk' | 'autocannon';

/**
 * BENCH_DRIVER if set, else wrk, which must then be installed. autocannon only when asked
 * for: two of them on the load core are the limit, not the servers (on 2026-12-06 the same
 * build measured 90.0% of the ceiling with autocannon and 71.4% with wrk; ADR 0142), so a
 * run that fell back to it without a word gave figures that looked better than they were.
 */
export function chooseClosedLoopDriver(requested: string | undefined): ClosedLoopDriver {
  if (requested === 'autocannon') return 'autocannon';
  if (requested !== undefined && requested !== 'wrk')
    throw new Error(`BENCH_DRIVER must be wrk or autocannon, not ${requested}`);
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    throw new Error(
      'wrk is not installed: apt-get install -y wrk (or BENCH_DRIVER=autocannon, which bounds both servers on this machine: ADR 0142)',
    );
  }
  return 'wrk';
}

/** The driver's name and version, for the report. */
export function describeClosedLoopDriver(driver: ClosedLoopDriver): string {
  if (driver === 'wrk') {
    // `wrk --version` prints "wrk 4.1.0 [epoll] Copyright ..." (and exits 1).
    const banner = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout;
    return `${/^wrk \S+/.exec(banner)?.[0] ?? 'wrk'} (1 thread, bench/paths.lua)`;
  }
  const { version } = createRequire(import.meta.url)('autocannon/package.json') as {
    version: string;
  };
  return `autocannon ${version} (bench/autocannon-driver.ts, 1 process)`;
}

export interface LoadTarget {
  readonly root: string;
  readonly port: number;
  readonly pathsFile: string;
  readonly connections: number;
  readonly seconds: number;
  /** Extra headers on every load request (wrk's -H, the Node drivers' --header). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** As many requests as the server answers, over a fixed number of connections. */
export function runClosedLoop(driver: ClosedLoopDriver, target: LoadTarget): Promise<DriverReport> {
  if (driver === 'wrk') {
    return startWrk({
      ...target,
      script: 'bench/paths.lua',
      scriptArgs: [target.pathsFile],
    }).report;
  }
  const url = `http://127.0.0.1:${target.port}`;
  return startPinned(nodeScript('bench/autocannon-driver.ts', url, target), target.root, driver)
    .report;
}

export interface WrkOptions {
  readonly root: string;
  readonly port: number;
  readonly connections: number;
  readonly seconds: number;
  /** The Lua script, from the root: bench/paths.lua or bench/creates.lua. */
  readonly script: string;
  readonly scriptArgs: readonly string[];
  /** Into wrk.headers, which the scripts' wrk.format() puts in every request they make. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A load generator running on the load core, and its report once it exits. */
export interface LoadRun {
  readonly child: ChildProcess;
  readonly report: Promise<DriverReport>;
}

/**
 * wrk (1 thread) on the load core, with one of the bench's Lua scripts, which print the
 * report line. It stops after `seconds`, or on SIGINT, and prints its figures either way.
 */
export function startWrk(options: WrkOptions): LoadRun {
  const command = [
    'wrk',
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    ...headerLines(options.headers).flatMap((line) => ['-H', line]),
    '-s',
    join(options.root, options.script),
    `http://127.0.0.1:${options.port}`,
    '--',
    ...options.scriptArgs,
  ];
  return startPinned(command, options.root, 'wrk');
}

/** A fixed rate, whatever the server does; latency counts from each intended send time. */
export function runOpenLoop(
  target: LoadTarget,
  rate: number,
  creates?: { readonly perSecond: number; readonly key: string },
): Promise<DriverReport> {
  const command = [
    ...nodeScript('bench/open-loop.ts', `http://127.0.0.1:${target.port}`, target),
    '--rate',
    String(rate),
    ...(creates === undefined
      ? []
      : ['--creates-per-second', String(creates.perSecond), '--create-key', creates.key]),
  ];
  return startPinned(command, target.root, 'open-loop').report;
}

function nodeScript(script: string, url: string, target: LoadTarget): string[] {
  return [
    process.execPath,
    '--import',
    'tsx',
    script,
    '--url',
    url,
    '--paths',
    target.pathsFile,
    '--connections',
    String(target.connections),
    '--seconds',
    String(target.seconds),
    ...headerLines(target.headers).flatMap((line) => ['--header', line]),
  ];
}

function headerLines(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`);
}

/**
 * Starts a driver on the load core; its report is parsed once it exits. Asynchronous on
 * purpose: while it runs, this process keeps draining the servers' piped output, so they
 * never block on it.
 */
function startPinned(command: readonly string[], cwd: string, name: string): LoadRun {
  const [file, ...args] = pin(LOAD_CORE, command);
  const child = spawn(file as string, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  trackProcess(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const report = new Promise<DriverReport>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(parseReport(output, name));
      else reject(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
  return { child, report };
}
