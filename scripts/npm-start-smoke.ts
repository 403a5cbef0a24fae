/**
 * The smoke run of issue 20: `npm start` in a checkout, then create a link, follow it,
 * see the click counted, and SIGTERM the npm process: hop itself must exit 0 (npm hands
 * the signal on; `start` execs node, so no shell sits between them) and close its port.
 * Used by `npm run test:node-versions` on each Node line and by test/e2e/npm-start.test.ts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { DESKTOP } from '../test/support/user-agents.js';

/** The npm running this process (npm test, npm run …), or the one installed beside this node. */
export const NPM_CLI =
  process.env['npm_execpath'] ??
  join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');

export interface SmokeOptions {
  /** The checkout to run `npm start` in (built, or `npm start` builds it). */
  readonly cwd: string;
  /** The node to run npm with; `node` on PATH must be the same one (hop is exec'd from PATH). */
  readonly node: string;
  /** npm's CLI script (npm-cli.js). */
  readonly npmCli: string;
  readonly env: Record<string, string>;
  readonly port: number;
  /** What to stop it with (default SIGTERM). */
  readonly signal?: 'SIGTERM' | 'SIGINT';
  /** How long each wait may take before the run fails, in ms. */
  readonly patienceMs?: number;
}

export interface SmokeResult {
  /** The process `npm start` ran: hop itself, not a shell. */
  readonly hopPid: number;
  readonly npmExitCode: number | null;
  readonly output: string;
  readonly steps: readonly string[];
}

const ADMIN_KEY = 'hop_smoke_admin_key_0123456789abcdef';

export async function npmStartSmoke(options: SmokeOptions): Promise<SmokeResult> {
  const patienceMs = options.patienceMs ?? 120_000;
  const url = `http://127.0.0.1:${options.port}`;
  const steps: string[] = [];
  const npm = spawn(options.node, [options.npmCli, 'start'], {
    cwd: options.cwd,
    env: {
      ...process.env,
      HOP_HOST: '127.0.0.1',
      HOP_PORT: String(options.port),
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_CLICK_FLUSH_INTERVAL: '200ms',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(npm, 'exit').then(([code]) => code as number | null);
  let hopPid: number | undefined;
  const fail = (what: string): never => {
    throw new Error(`smoke run: ${what}\n--- npm start said:\n${output}`);
  };
  try {
    await waitFor(() => output.includes('"msg":"hop listening"'), patienceMs, 'hop listening');
    hopPid = childOf(npm.pid ?? fail('npm did not start'));
    const hop = hopPid;
    steps.push(`npm start: hop ${hopPid} listening on ${url}`);
    const created = await fetch(`${url}/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'https://example.com/smoke' }),
    });
    if (created.status !== 201) fail(`create answered ${created.status}`);
    const link = (await created.json()) as { id: string; code: string };
    steps.push(`created ${link.code}`);
    // A person's browser: fetch's own user agent is a bot's, counted apart (ADR 0094).
    const redirect = await fetch(`${url}/${link.code}`, {
      redirect: 'manual',
      headers: { 'user-agent': DESKTOP },
    });
    if (redirect.headers.get('location') !== 'https://example.com/smoke') {
      fail(`/${link.code} answered ${redirect.status} to ${redirect.headers.get('location')}`);
    }
    steps.push(`/${link.code} redirected (${redirect.status})`);
    await waitFor(
      async () => {
        const read = await fetch(`${url}/v1/links/${link.id}`, {
          headers: { authorization: `Bearer ${ADMIN_KEY}` },
        });
        return ((await read.json()) as { clicks: number }).clicks === 1;
      },
      patienceMs,
      'the click counted',
    );
    steps.push('the click was counted');
    const signal = options.signal ?? 'SIGTERM';
    npm.kill(signal);
    const npmExitCode = await Promise.race([
      exited,
      sleep(patienceMs).then(() => fail(`npm start did not end after ${signal}`)),
    ]);
    await waitFor(() => !alive(hop), patienceMs, `hop (pid ${hop}) to exit`);
    if (await portOpen(options.port)) fail(`port ${options.port} still answers after ${signal}`);
    steps.push(`${signal} to npm: npm exited ${npmExitCode}, hop gone, port closed`);
    return { hopPid: hop, npmExitCode, output, steps };
  } catch (error) {
    // npm does not pass SIGKILL on: hop is killed by its own pid.
    if (hopPid !== undefined && alive(hopPid)) process.kill(hopPid, 'SIGKILL');
    npm.kill('SIGKILL');
    throw error;
  }
}

/** The one child of `pid` (Linux: /proc): the process `npm start` runs. */
function childOf(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
  if (children.length !== 1 || children[0] === '') {
    throw new Error(`npm (pid ${pid}) has children ${JSON.stringify(children)}, not one`);
  }
  return Number(children[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `ready` every 50 ms until it holds; after `patienceMs`, throws naming `what`. */
async function waitFor(
  ready: () => boolean | Promise<boolean>,
  patienceMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + patienceMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`smoke run: waited ${patienceMs} ms for ${what}`);
    await sleep(50);
  }
}
