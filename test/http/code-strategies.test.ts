import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { poolCodeCount } from '../../src/adapters/pool-file/pool-file-format.js';
import { loadConfig } from '../../src/config/load-config.js';
import { runSweep } from '../../src/services/lifecycle/sweeper.js';
import { assertProblem } from '../support/problem-assertions.js';
import { numberedCodes, writePoolFile } from '../support/pool-files.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const DAY_MS = 86_400_000;
const GRACE_MS = 30 * DAY_MS;

async function serverWith(t: TestContext, env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer(env);
  t.after(() => server.close());
  return server;
}

async function create(server: TestServer, body: Record<string, unknown>) {
  return server.request('POST', '/v1/links', { body });
}

function sweep(server: TestServer) {
  const { runtime } = server;
  return runSweep(runtime.sweepDeps, server.clock.now());
}

describe('code strategies over HTTP', () => {
  for (const [strategy, pattern, extra] of [
    ['random', /^[0-9a-zA-Z]{7}$/, {}],
    ['snowflake', /^[0-9a-zA-Z]{11}$/, { HOP_WORKER_ID: '7' }],
    [
      'permutation',
      /^[0-9a-zA-Z]{7}$/,
      { HOP_PERMUTATION_KEY: 'a-test-permutation-key-of-32-chars' },
    ],
    ['hash', /^[0-9a-zA-Z_-]{6}$/, {}],
  ] as const) {
    test(`${strategy}: creates links that redirect, and reports itself in /v1/stats`, async (t) => {
      const server = await serverWith(t, { HOP_CODE_STRATEGY: strategy, ...extra });
      const codes = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const created = await create(server, { destination: `https://example.com/${i}` });
        assert.equal(created.status, 201, created.text);
        assert.match(created.json.code, pattern);
        codes.add(created.json.code);
      }
      assert.equal(codes.size, 20);
      const [first] = codes;
      const redirect = await server.request('GET', `/${first}`, { key: null });
      assert.equal(redirect.status, 302);

      const stats = await server.request('GET', '/v1/stats');
      assert.equal(stats.status, 200, stats.text);
      assert.equal(stats.json.codes.strategy, strategy);
      assert.equal(stats.json.creates.links_created, 20);
      assert.equal(stats.json.creates.insert_attempts, 20);
    });
  }

  test('hash: the same destination twice costs the second create another insert', async (t) => {
    const server = await serverWith(t, { HOP_CODE_STRATEGY: 'hash' });
    const first = await create(server, { destination: 'https://example.com/same' });
    const second = await create(server, { destination: 'https://example.com/same' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.notEqual(first.json.code, second.json.code);
    const stats = (await server.request('GET', '/v1/stats')).json;
    assert.equal(stats.creates.links_created, 2);
    assert.equal(stats.creates.insert_attempts, 3);
    assert.equal(stats.creates.store_round_trips_per_create, 1.5);
  });

  test('/v1/stats is for admins: 401 without a key, 403 with an owner key', async (t) => {
    const server = await serverWith(t, {});
    assertProblem(await server.request('GET', '/v1/stats', { key: null }), 401);
    const owner = await server.ownerKey('team');
    assertProblem(await server.request('GET', '/v1/stats', { key: owner }), 403, 'forbidden');
  });

  test('/v1/stats shows the guess probability once active links are counted', async (t) => {
    const server = await serverWith(t, {});
    await create(server, { destination: 'https://example.com/a' });
    await create(server, { destination: 'https://example.com/b', alias: 'my-alias' });
    await server.runtime.codes.guessBound.refresh();
    const stats = (await server.request('GET', '/v1/stats')).json;
    assert.equal(stats.links.active, 2);
    assert.equal(stats.codes.code_space, 62 ** 7);
    assert.equal(stats.codes.guess_probability, 2 / 62 ** 7);
    assert.equal(stats.codes.guess_bound, 1e-6);
    assert.equal(stats.codes.over_bound, false);
    const metrics = await server.request('GET', '/metrics', { key: null });
    assert.match(metrics.text, /^hop_guess_probability \S+$/m);
    assert.match(metrics.text, /^hop_links_created_total 2$/m);
  });

  test('codes get one more character when the guess bound is passed', async (t) => {
    // 62^4 = 14.8M codes; a bound of 1e-7 is passed by the second link, so the third
    // gets five characters.
    const server = await serverWith(t, { HOP_CODE_LENGTH: '4', HOP_GUESS_BOUND: '1e-7' });
    await server.runtime.codes.guessBound.refresh();
    const lengths: number[] = [];
    for (const i of [1, 2, 3]) {
      lengths.push(
        (await create(server, { destination: `https://example.com/${i}` })).json.code.length,
      );
    }
    assert.deepEqual(lengths, [4, 4, 5]);
    const stats = (await server.request('GET', '/v1/stats')).json;
    assert.equal(stats.codes.length, 5);
  });
});

describe('the pool strategy over HTTP, with the sweeper', () => {
  test('an empty pool is a 503 problem and a metric; a reclaimed code is reissued only after the grace period', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-http-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const poolFile = join(dir, 'pool.codes');
    writePoolFile(poolFile, numberedCodes(3, 7), 7);
    const server = await serverWith(t, {
      HOP_CODE_STRATEGY: 'pool',
      HOP_POOL_FILE: poolFile,
      HOP_DEFAULT_TTL: '0',
      HOP_MAX_TTL: '0',
    });

    const taken = await create(server, { destination: 'https://example.com/reclaimed' });
    assert.equal(taken.json.code, 'p000000');
    const alias = await create(server, {
      destination: 'https://example.com/a',
      alias: 'kept-alias',
    });
    assert.equal(alias.status, 201);
    for (const id of [taken.json.id, alias.json.id]) {
      assert.equal((await server.request('DELETE', `/v1/links/${id}`)).status, 204);
    }
    await create(server, { destination: 'https://example.com/2' });
    await create(server, { destination: 'https://example.com/3' });

    const empty = await create(server, { destination: 'https://example.com/none' });
    assertProblem(empty, 503, 'code-pool-exhausted');
    assert.ok(empty.headers.get('retry-after'));
    const metrics = (await server.request('GET', '/metrics', { key: null })).text;
    assert.match(metrics, /^hop_code_pool_exhausted_total 1$/m);
    assert.match(metrics, /^hop_code_pool_remaining 0$/m);

    // One millisecond before the grace period ends: nothing goes back.
    server.clock.advance(GRACE_MS - 1);
    assert.equal((await sweep(server)).reclaimed, 0);
    assert.equal(poolCodeCount(readFileSync(poolFile).length, 7), 3);
    assertProblem(await create(server, { destination: 'https://example.com/x' }), 503);

    // At the end of it, the generated code is appended to the pool and handed out again;
    // the alias is not.
    server.clock.advance(1);
    assert.equal((await sweep(server)).reclaimed, 1);
    assert.equal(poolCodeCount(readFileSync(poolFile).length, 7), 4);
    const reissued = await create(server, { destination: 'https://example.com/new-owner' });
    assert.equal(reissued.status, 201, reissued.text);
    assert.equal(reissued.json.code, 'p000000');
    const redirect = await server.request('GET', '/p000000', { key: null });
    assert.equal(redirect.headers.get('location'), 'https://example.com/new-owner');

    server.clock.advance(100 * 365 * DAY_MS);
    await sweep(server);
    const again = await create(server, {
      destination: 'https://example.com/b',
      alias: 'kept-alias',
    });
    assertProblem(again, 409, 'alias-taken');
  });
});

describe('code strategy configuration', () => {
  const base = { HOP_DATA_DIR: '/tmp/hop-config-test' };
  const problemsOf = (env: Record<string, string>): string => {
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  test('every strategy of SPEC §2 is accepted; others are refused by name', () => {
    for (const strategy of ['random', 'pool', 'snowflake', 'hash']) {
      assert.equal(problemsOf({ HOP_CODE_STRATEGY: strategy }), '');
    }
    assert.match(problemsOf({ HOP_CODE_STRATEGY: 'uuid' }), /^HOP_CODE_STRATEGY="uuid" is invalid/);
  });

  test('permutation needs a key, and at most 8 characters', () => {
    assert.match(
      problemsOf({ HOP_CODE_STRATEGY: 'permutation' }),
      /HOP_PERMUTATION_KEY is missing/,
    );
    const key = { HOP_PERMUTATION_KEY: 'a-test-permutation-key-of-32-chars' };
    assert.equal(problemsOf({ HOP_CODE_STRATEGY: 'permutation', ...key }), '');
    assert.match(
      problemsOf({ HOP_CODE_STRATEGY: 'permutation', HOP_CODE_LENGTH: '9', ...key }),
      /HOP_CODE_LENGTH=9 is invalid: expected at most 8/,
    );
  });

  test('hash takes 6 characters unless HOP_CODE_LENGTH says otherwise', () => {
    assert.equal(loadConfig({ ...base, HOP_CODE_STRATEGY: 'hash' }).codeLength, 6);
    assert.equal(
      loadConfig({ ...base, HOP_CODE_STRATEGY: 'hash', HOP_CODE_LENGTH: '8' }).codeLength,
      8,
    );
    assert.equal(loadConfig(base).codeLength, 7);
  });

  test('HOP_GUESS_BOUND is a probability', () => {
    assert.equal(loadConfig({ ...base, HOP_GUESS_BOUND: '2.5e-9' }).guessBound, 2.5e-9);
    for (const bad of ['0', '1', '-1e-6', 'often', '1e6']) {
      assert.match(problemsOf({ HOP_GUESS_BOUND: bad }), /^HOP_GUESS_BOUND=.* is invalid/, bad);
    }
  });

  test('a pool strategy without a pool file names HOP_POOL_FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-missing-'));
    try {
      await assert.rejects(
        startTestServer(
          { HOP_CODE_STRATEGY: 'pool', HOP_POOL_FILE: join(dir, 'none.codes') },
          { dataDir: dir },
        ),
        /HOP_POOL_FILE=".*none\.codes" cannot be used for HOP_CODE_STRATEGY=pool/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
