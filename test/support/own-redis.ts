import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { eventually } from './eventually.js';
import { freePort } from './free-port.js';

/**
 * Whether redis-server can be run here. Under CI=true a missing binary fails the test
 * (never a silent skip in CI); elsewhere the test is skipped with a message.
 */
export function requireRedisServer(t: TestContext): boolean {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error === undefined && probe.status === 0) return true;
  const why = `redis-server cannot be run (${probe.error?.message ?? `exit ${probe.status}`})`;
  if (process.env['CI'] === 'true') throw new Error(why);
  t.skip(`${why}; install it to run this test`);
  return false;
}

/** One PING over a fresh connection: true on +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
  });
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** SIGSTOP: connections stay open and nothing answers, as a stalled or cut-off Redis. */
  freeze(): void;
  /** SIGCONT: it answers again, with every key it held. */
  thaw(): void;
  /** SIGKILL, as abrupt as a crash, and wait until the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  /** Killed and started again on the same port, empty. */
  restart(): Promise<void>;
  /** What it printed, for a failure message. */
  output(): string;
}

/**
 * A redis-server of this test's own on a free loopback port, never the shared one (tests
 * kill, freeze and restart it). Killed and its folder removed after the test.
 */
export async function startOwnRedis(t: TestContext): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hop-own-redis-'));
  let child: ChildProcess | null = null;
  let output = '';
  const kill = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited:\n${output}`);
        return answersPing(port);
      },
      `redis-server answering on ${port}`,
      6000,
    );
  };
  t.after(async () => {
    await kill();
    rmSync(dir, { recursive: true, force: true });
  });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    kill,
    start,
    restart: async () => {
      await kill();
      await start();
    },
    output: () => output,
  };
}
