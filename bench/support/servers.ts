import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pin, SERVER_CORE } from './pin-to-core.js';
import { stopProcess } from './stop-process.js';

/** This checkout's root: the directory `npm run bench` runs in. */
export const BENCH_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What `hop serve` logs once every stored code is in its known-codes filter. */
export const HOP_READY = /known codes loaded/;
/** What it logs once it listens: ready when the filter is not loaded (HOP_KNOWN_CODES=off). */
export const HOP_LISTENING = /hop listening/;
/** What bench/ceiling-server.ts and bench/create-ceiling-server.ts print once they listen. */
export const CEILING_READY = /ceiling listening/;

/** A server process a bench started, on the server core. */
export interface Server {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The messages of its pino log lines at warn or above (level ≥ 40), as they come. */
  readonly warnings: string[];
}

export interface ServerSpec {
  readonly name: string;
  readonly port: number;
  /** The command, unpinned: it runs on SERVER_CORE. */
  readonly command: readonly string[];
  /** Ready once its stdout matches; null: at once. */
  readonly ready: RegExp | null;
  readonly env: NodeJS.ProcessEnv;
  /** Where it runs; BENCH_ROOT unless another checkout's hop. */
  readonly cwd?: string;
}

const started: ChildProcess[] = [];
let killOnExit = false;

/**
 * Starts a server pinned to the server core and resolves once it is ready. Every process
 * started here is killed when the bench exits, however it exits.
 */
export function startServer(spec: ServerSpec): Promise<Server> {
  const [file, ...args] = pin(SERVER_CORE, spec.command);
  const child = spawn(file as string, args, {
    cwd: spec.cwd ?? BENCH_ROOT,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  trackProcess(child);
  const server: Server = { name: spec.name, port: spec.port, child, warnings: [] };
  return new Promise((resolve, reject) => {
    // Kept until ready only (for the error message); then just lines, scanned for warnings.
    let output = '';
    let waiting = spec.ready !== null;
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (waiting) {
        output += text;
        if (spec.ready?.test(output) === true) {
          waiting = false;
          output = '(ready)';
          resolve(server);
        }
      }
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const warning = warningOf(line);
        if (warning !== null) server.warnings.push(warning);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      reject(new Error(`${spec.name} (${spec.command.join(' ')}) exited with ${code}:\n${output}`));
    });
    if (spec.ready === null) resolve(server);
  });
}

/** A process of the bench's own (a load generator, a sweep): killed on exit like servers. */
export function trackProcess(child: ChildProcess): void {
  started.push(child);
  if (!killOnExit) {
    killOnExit = true;
    process.on('exit', () => {
      for (const process of started) process.kill('SIGKILL');
    });
  }
}

/** Stops every process started so far, awaiting each exit. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all(started.map((child) => stopProcess(child)));
}

/** How many processes the bench started, and how many still run. */
export function processCounts(): { started: number; running: number } {
  const running = started.filter((c) => c.exitCode === null && c.signalCode === null).length;
  return { started: started.length, running };
}

/**
 * hop as `npm start` runs it in `root`: its package.json's start script, split into words
 * (the script is one command; `node` is this Node). Whatever `prestart` prepares must be
 * prepared first: see prepareNpmStart.
 */
export function npmStartCommand(root: string): string[] {
  const script = startScript(root);
  if (/[;&|<>$`'"\\]/.test(script))
    throw new Error(`cannot run ${root}'s start script without a shell: ${script}`);
  // `exec node …` (ADR 0104): the shell's exec is what spawning node directly does anyway.
  const words = script.trim().split(/\s+/);
  const [program, ...args] = words[0] === 'exec' ? words.slice(1) : words;
  if (program !== 'node') return [program as string, ...args];
  // For profiling only (e.g. --cpu-prof --cpu-prof-dir=DIR): figures taken with flags are
  // not hop as `npm start` runs it.
  const flags = process.env.BENCH_HOP_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  return [process.execPath, ...flags, ...args];
}

/** What `npm start` runs before the start script (the console's assets), and a build when it runs compiled code. */
export function prepareNpmStart(root: string): void {
  const scripts = packageScripts(root);
  if (scripts['prestart'] !== undefined) runNpm(root, 'prestart');
  // A prestart that builds when stale (ADR 0104) leaves nothing to do here.
  if (startScript(root).includes('dist/') && !existsSync(join(root, 'dist/cli/hop.js'))) {
    runNpm(root, 'build');
  }
}

/**
 * hop compiled (`npm run build` first), for the scenarios that measure a deployment's
 * topology (sweep, scale, regions): V8's default young generation, without the
 * `--max-semi-space-size=8` that `npm start` and deploy/hop.service pass (ADR 0151).
 */
export function compiledHopCommand(...args: string[]): string[] {
  return [process.execPath, 'dist/cli/hop.js', ...args];
}

/** `npm run build` in `root`. */
export function buildHop(root: string): void {
  runNpm(root, 'build');
}

/** The bare node:http redirect ceiling (bench/ceiling-server.ts) over a codes file. */
export function ceilingCommand(codesFile: string, port: number): string[] {
  return tsxScript('bench/ceiling-server.ts', codesFile, String(port));
}

/** The create ceiling (bench/create-ceiling-server.ts). */
export function createCeilingCommand(port: number): string[] {
  return tsxScript('bench/create-ceiling-server.ts', String(port));
}

function tsxScript(script: string, ...args: string[]): string[] {
  return [process.execPath, '--import', 'tsx', join(BENCH_ROOT, script), ...args];
}

function runNpm(root: string, script: string): void {
  execFileSync('npm', ['run', script, '--silent'], { cwd: root, stdio: 'inherit' });
}

function startScript(root: string): string {
  const script = packageScripts(root)['start'];
  if (script === undefined) throw new Error(`${root}/package.json has no start script`);
  return script;
}

function packageScripts(root: string): Readonly<Record<string, string>> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return manifest.scripts ?? {};
}

/** A pino log line's message when its level is warn or above; null otherwise. */
function warningOf(line: string): string | null {
  if (!line.startsWith('{')) return null;
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string };
    return (entry.level ?? 0) >= 40 ? (entry.msg ?? line) : null;
  } catch {
    return null;
  }
}
