/**
 * Links by state on the dashboard and `/v1/stats` (ADR 0100; issue 20: "Links 32 / Active
 * links 32" with 2 disabled, 2 expired and 1 deleted; aliases left out; two instances that
 * disagreed). Runs on SQLite and, through on-postgres.test.ts, on PostgreSQL; two instances
 * on one PostgreSQL schema are at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MIN_RECOUNT_AGE_MS } from '../../src/services/stats/link-counts.js';
import {
  dropSchema,
  POSTGRES_URL,
  uniqueSchema,
  whenPostgres,
} from '../support/require-postgres.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const HOUR_MS = 3_600_000;

async function create(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const created = await server.request('POST', '/v1/links', { body });
  assert.equal(created.status, 201, created.text);
  return created.json.id as string;
}

async function act(server: TestServer, method: string, path: string): Promise<void> {
  const response = await server.request(method, path);
  assert.ok(response.status === 200 || response.status === 204, response.text);
}

/** The counts both endpoints answer, after checking they agree with each other. */
async function countsOf(server: TestServer): Promise<Record<string, unknown>> {
  const stats = await server.request('GET', '/v1/stats');
  assert.equal(stats.status, 200, stats.text);
  const dashboard = await server.request('GET', '/admin/api/dashboard');
  assert.equal(dashboard.status, 200, dashboard.text);
  const { all, ...links } = dashboard.json.links;
  assert.deepEqual(links, stats.json.links, 'the dashboard and /v1/stats show the same counts');
  assert.equal(all, links.total, '`all`, the older name, is still there');
  return stats.json.links;
}

describe('link counts by state', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('32 links, 2 disabled, 2 expired, 1 deleted, aliases among them: exact', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 29; i++) {
      const alias = i % 5 === 0 ? { alias: `counted-alias-${i}` } : {};
      ids.push(await create(server, { destination: `https://example.com/${i}`, ...alias }));
    }
    const soon = new Date(server.clock.now() + HOUR_MS).toISOString();
    for (let i = 0; i < 3; i++) {
      // One of the three is an alias; two expire without the sweeper marking them.
      const alias = i === 0 ? { alias: 'expiring-alias' } : {};
      ids.push(await create(server, { destination: 'https://example.com/soon', ...alias }));
      if (i < 2) {
        const patched = await server.request('PATCH', `/v1/links/${ids.at(-1)}`, {
          body: { expires_at: soon },
        });
        assert.equal(patched.status, 200, patched.text);
      }
    }
    await act(server, 'POST', `/v1/links/${ids[0]}/disable`);
    await act(server, 'POST', `/v1/links/${ids[1]}/disable`);
    await act(server, 'DELETE', `/v1/links/${ids[2]}`);
    server.clock.advance(2 * HOUR_MS);

    const counts = await countsOf(server);
    assert.deepEqual(
      { ...counts, counted_at: undefined },
      { total: 32, active: 27, disabled: 2, expired: 2, deleted: 1, counted_at: undefined },
    );
    assert.equal(counts.counted_at, new Date(server.clock.now()).toISOString());
  });

  test('the counts are a snapshot that says when it was counted, counted again once due', async () => {
    const before = await countsOf(server);
    await create(server, { destination: 'https://example.com/after-the-count' });
    server.clock.advance(MIN_RECOUNT_AGE_MS - 1);
    assert.deepEqual(await countsOf(server), before, 'within a second: the same snapshot');
    // Due after max(1 s, 100 × what the census took): an hour is past both here.
    server.clock.advance(HOUR_MS);
    const after = await countsOf(server);
    assert.equal(after.total, (before.total as number) + 1);
    assert.equal(after.active, (before.active as number) + 1);
    assert.equal(after.counted_at, new Date(server.clock.now()).toISOString());
  });
});

await whenPostgres('two instances on one PostgreSQL schema (needs PostgreSQL)', () => {
  describe('two instances on one PostgreSQL schema', () => {
    test('answer the same counts, whichever made the links', async (t) => {
      const schema = uniqueSchema();
      const env = { HOP_DATABASE_URL: POSTGRES_URL, HOP_DATABASE_SCHEMA: schema };
      const a = await startTestServer(env);
      const b = await startTestServer(env);
      t.after(async () => {
        await a.close();
        await b.close();
        await dropSchema(schema);
      });
      const first = await create(a, { destination: 'https://example.com/a1' });
      await create(a, { destination: 'https://example.com/a2', alias: 'shared-alias' });
      await create(a, { destination: 'https://example.com/a3' });
      await act(a, 'POST', `/v1/links/${first}/disable`);
      // b made none of them, and counts them all.
      const fromB = await countsOf(b);
      assert.deepEqual(
        { ...fromB, counted_at: undefined },
        { total: 3, active: 2, disabled: 1, expired: 0, deleted: 0, counted_at: undefined },
      );
      assert.deepEqual(await countsOf(a), fromB, 'a reads the snapshot b saved');

      await act(a, 'DELETE', `/v1/links/${first}`);
      a.clock.advance(HOUR_MS);
      b.clock.advance(HOUR_MS);
      const fromA = await countsOf(a);
      assert.equal(fromA.deleted, 1);
      assert.equal(fromA.disabled, 0);
      assert.deepEqual(await countsOf(b), fromA, 'b reads the snapshot a saved');
    });
  });
});
