import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The compiled CLI, as an operator runs it: scripts/run-tests.ts builds it once per run
 * (`npm run build`), so no test pays for compiling TypeScript in every child.
 */
const HOP_COMMAND = [fileURLToPath(new URL('../../dist/cli/hop.js', import.meta.url))];
assert.ok(
  existsSync(HOP_COMMAND[0]!),
  `${HOP_COMMAND[0]!} is missing: npm test builds it; to run one file on its own, npm run build first`,
);

export interface HopRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs one `hop` command to completion, the way an operator would. Asynchronously: a test
 * blocked in spawnSync cannot see a server close an idle keep-alive connection, and its
 * next fetch then fails on the dead socket ("other side closed").
 */
export function runHop(
  args: readonly string[],
  env: Record<string, string>,
  nodeOptions: readonly string[] = [],
  /** Written to its stdin, then closed; without it stdin is closed at once, empty. */
  input?: string,
): Promise<HopRun> {
  const child = spawn(process.execPath, [...nodeOptions, ...HOP_COMMAND, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  // A command that exits without reading its stdin makes this write EPIPE: not a failure.
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

export interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Base URL it listens on, read from its "hop listening" log line. */
  readonly url: string;
  /** Everything it wrote so far (kept for the failure message of a test). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** SIGTERM, and asserts the process exits 0 (its output is the failure message). */
export async function stopHop(hop: ServeProcess): Promise<void> {
  hop.child.kill('SIGTERM');
  assert.equal(await hop.exited, 0, hop.output());
}

/** Starts `hop serve` on a free port and waits until it says where it listens. */
export function startHop(env: Record<string, string>): Promise<ServeProcess> {
  return startHopCommand('serve', env, 'hop listening');
}

/** Starts `hop worker` and waits until it says it is folding (its `url` is ''). */
export function startHopWorker(env: Record<string, string>): Promise<ServeProcess> {
  return startHopCommand('worker', env, 'hop worker folding clicks');
}

function startHopCommand(
  command: string,
  env: Record<string, string>,
  readyMessage: string,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...HOP_COMMAND, command], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOP_HOST: '127.0.0.1',
      HOP_PORT: '0',
      HOP_WORKER_PORT: '0',
      // A CI machine busy with other test files lags the event loop past 200 ms; shedding
      // is tested on its own (test/http/load-shedding.test.ts), so these processes never shed
      // unless a test asks for it.
      HOP_SHED_LAG: '1h',
      ...env,
    },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { msg?: string; address?: string };
          if (entry.msg === readyMessage) {
            child.stdout.off('data', onData);
            child.stdout.on('data', (more: Buffer) => (output += more.toString()));
            resolve({ child, url: entry.address ?? '', output: () => output, exited });
            return;
          }
        } catch {
          // a partial line; wait for the rest
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) =>
      reject(new Error(`hop ${command} exited with ${code} before it was ready:\n${output}`)),
    );
  });
}

/** The value of one sample of a hop's /metrics, e.g. `hop_l2_requests_total{result="hit"}`. */
export async function metric(hop: ServeProcess, sample: string): Promise<number> {
  const text = await (await fetch(`${hop.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  if (line === undefined) throw new Error(`${sample} is not in /metrics:\n${text}`);
  return Number(line.slice(sample.length + 1));
}

interface LogLine {
  readonly level: number;
  readonly msg?: string;
}

/** The JSON lines a hop process has logged so far. */
export function logLines(hop: ServeProcess): LogLine[] {
  return hop
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}
