import { freePort } from './free-port.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';

export const NATS_URL = process.env['HOP_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

/**
 * Whether the shared NATS server answers. Under CI=true an unreachable server fails the
 * test (never a silent skip in CI); elsewhere the test is skipped with a message.
 */
export async function requireNats(t: TestContext): Promise<boolean> {
  const url = new URL(NATS_URL);
  if (await isListening(Number(url.port || 4222), url.hostname)) return true;
  if (process.env['CI'] === 'true') throw new Error(`NATS at ${NATS_URL} is unreachable`);
  t.skip(`NATS at ${NATS_URL} is unreachable; start it to run this test`);
  return false;
}

/** A stream name no other run uses; `t.after` deletes the stream. */
export function uniqueStream(t: TestContext, servers = NATS_URL): string {
  const name = `HOP_TEST_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  t.after(() => deleteStream(servers, name));
  return name;
}

export async function deleteStream(servers: string, name: string): Promise<void> {
  const nc = await natsConnect({ servers, timeout: 2000 }).catch(() => null);
  if (nc === null) return;
  try {
    const manager = await jetstreamManager(nc);
    await manager.streams.delete(name).catch(() => false);
  } finally {
    await nc.close();
  }
}

function isListening(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export interface OwnNatsServer {
  readonly url: string;
  /** Stops the server (SIGKILL: as abrupt as a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  close(): Promise<void>;
}

/** A nats-server of the test's own, with JetStream, on a free loopback port. */
export async function startOwnNats(): Promise<OwnNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'hop-nats-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('nats-server', ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)], {
      stdio: 'ignore',
    });
    for (let attempt = 0; attempt < 500; attempt++) {
      if (await isListening(port, '127.0.0.1')) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`nats-server did not listen on ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
