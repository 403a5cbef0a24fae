import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runHop } from '../support/hop-process.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';
import { tempDataDir } from '../support/temp-data.js';

/** The server's libraries, which a CLI command on the embedded store has no use for. */
const SERVER_PACKAGES = new Set(['fastify', 'pg', 'ioredis', 'autocannon']);
const isServerPackage = (name: string) => SERVER_PACKAGES.has(name) || name.startsWith('@nats-io/');

/**
 * Runs a compiled `hop` command with a module resolve hook that writes down every module
 * it loads, and returns the packages among them. Node 20's hooks see imports, not
 * `require()`: a package that only a CommonJS dependency requires would not show.
 */
async function packagesLoaded(
  dir: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Set<string>> {
  const trace = join(dir, `loaded-${args.join('-')}.txt`);
  const hooks =
    `import { appendFileSync } from 'node:fs';` +
    `export async function resolve(specifier, context, next) {` +
    `  const resolved = await next(specifier, context);` +
    `  appendFileSync(${JSON.stringify(trace)}, resolved.url + '\\n');` +
    `  return resolved; }`;
  const register =
    `import { register } from 'node:module';` +
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const run = await runHop(args, env, [
    `--import=data:text/javascript,${encodeURIComponent(register)}`,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const packages = new Set<string>();
  for (const url of readFileSync(trace, 'utf8').split('\n')) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (name !== undefined) packages.add(name);
  }
  return packages;
}

test('hop keys list on the embedded store loads neither fastify, pg, ioredis, NATS nor autocannon', async (t) => {
  const dir = tempDataDir(t, 'hop-cli-loads-');
  assert.equal((await runHop(['migrate'], { HOP_DATA_DIR: dir })).status, 0);
  const loaded = await packagesLoaded(dir, ['keys', 'list'], { HOP_DATA_DIR: dir });
  assert.ok(loaded.has('better-sqlite3'), `the trace sees packages: ${[...loaded].join(', ')}`);
  const server = [...loaded].filter(isServerPackage);
  assert.deepEqual(server, []);
});

test('with Redis configured, a command that changes data loads ioredis; a read-only one does not (issue 20)', async (t) => {
  if (!(await requireRedis(t))) return;
  const dir = tempDataDir(t, 'hop-cli-loads-');
  const env = { HOP_DATA_DIR: dir, HOP_REDIS_URL: REDIS_URL, HOP_REDIS_PREFIX: uniquePrefix() };
  const changing = await packagesLoaded(dir, ['keys', 'create', '--owner', 'loads'], env);
  assert.ok(changing.has('ioredis'), [...changing].join(', '));
  assert.ok(!changing.has('pg') && !changing.has('fastify'), [...changing].join(', '));
  // A read has nothing to tell other instances: it never connects to Redis.
  const reading = await packagesLoaded(dir, ['keys', 'list'], env);
  assert.ok(!reading.has('ioredis'), [...reading].join(', '));
});
