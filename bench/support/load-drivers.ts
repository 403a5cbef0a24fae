import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseReport, type DriverReport } from './driver-report.js';
import { LOAD_CORE, pin } from './pin-to-core.js';

/** Closed-loop drivers: each connection sends its next request when the last is answered. */
export type ClosedLoopDriver = 'wrk' | 'autocannon';

/** BENCH_DRIVER if set, else wrk when it is installed, else autocannon. */
export function chooseClosedLoopDriver(requested: string | undefined): ClosedLoopDriver {
  const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
  if (requested === 'autocannon') return 'autocannon';
  if (requested === 'wrk') {
    if (!hasWrk)
      throw new Error('BENCH_DRIVER=wrk but wrk is not installed: apt-get install -y wrk');
    return 'wrk';
  }
  if (requested !== undefined)
    throw new Error(`BENCH_DRIVER must be wrk or autocannon, not ${requested}`);
  return hasWrk ? 'wrk' : 'autocannon';
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
  const url = `http://127.0.0.1:${target.port}`;
  const command =
    driver === 'wrk'
      ? [
          'wrk',
          '-t1',
          `-c${target.connections}`,
          `-d${target.seconds}s`,
          // Into wrk.headers, which paths.lua's wrk.format() puts in every request it makes.
          ...headerLines(target).flatMap((line) => ['-H', line]),
          '-s',
          join(target.root, 'bench/paths.lua'),
          url,
          '--',
          target.pathsFile,
        ]
      : nodeScript('bench/autocannon-driver.ts', url, target);
  return runPinned(command, target.root, driver);
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
  return runPinned(command, target.root, 'open-loop');
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
    ...headerLines(target).flatMap((line) => ['--header', line]),
  ];
}

function headerLines(target: LoadTarget): string[] {
  return Object.entries(target.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
}

/**
 * Runs a driver on the load core and parses its report. Asynchronous on purpose: while it
 * runs, this process keeps draining the servers' piped output, so they never block on it.
 */
function runPinned(command: readonly string[], cwd: string, name: string): Promise<DriverReport> {
  const [file, ...args] = pin(LOAD_CORE, command);
  const child = spawn(file as string, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(parseReport(output, name));
      else reject(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
}
