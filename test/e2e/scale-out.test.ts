import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { sendClicks } from '../support/click-load.js';
import { E2E_ADMIN_KEY, readMetric } from '../support/click-counts.js';
import { eventually } from '../support/eventually.js';
import { startHop, startHopWorker, stopHop, type ServeProcess } from '../support/hop-process.js';
import { requireNats, uniqueStream, NATS_URL } from '../support/require-nats.js';
import {
  POSTGRES_URL,
  queryPostgres,
  requirePostgres,
  testSchema,
} from '../support/require-postgres.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';
import { tempDataDir } from '../support/temp-data.js';

const AUTH = { authorization: `Bearer ${E2E_ADMIN_KEY}`, 'content-type': 'application/json' };

/** Stopped (SIGKILL) after the test if it is still running; before the schema is dropped. */
function killAfter(t: TestContext, process: ServeProcess): ServeProcess {
  t.after(() => process.child.kill('SIGKILL'));
  return process;
}

async function redirectOf(
  base: string,
  code: string,
): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${base}/${code}`, { redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

async function post(base: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: AUTH,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A link's counted clicks in PostgreSQL (0 before the first fold). */
async function clicksOf(schema: string, linkId: string): Promise<number> {
  const rows = await queryPostgres<{ clicks: number }>(
    schema,
    'SELECT clicks::int AS clicks FROM click_totals WHERE link_id = $1',
    [linkId],
  );
  return rows[0]?.clicks ?? 0;
}

/** Polls until `check` holds and returns how long that took, in milliseconds. */
async function timeUntil(check: () => Promise<boolean>, what: string): Promise<number> {
  const started = performance.now();
  // 10 ms apart, at most 30 s: half the L1 TTL, so a change seen at all was not an expiry.
  await eventually(check, what, 3000);
  return Math.round(performance.now() - started);
}

describe('scaled out: instances on one PostgreSQL, Redis and NATS', () => {
  test('three instances: creates, edits and disables reach every instance; clicks on all three are counted once', async (t) => {
    if (!(await requirePostgres(t)) || !(await requireRedis(t)) || !(await requireNats(t))) {
      return;
    }
    const schema = testSchema(t);
    const prefix = uniquePrefix();
    const env = {
      HOP_DATA_DIR: tempDataDir(t, 'hop-scale-'),
      HOP_DATABASE_URL: POSTGRES_URL,
      HOP_DATABASE_SCHEMA: schema,
      HOP_REDIS_URL: REDIS_URL,
      HOP_REDIS_PREFIX: prefix,
      HOP_NATS_URL: NATS_URL,
      HOP_NATS_STREAM: uniqueStream(t),
      HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
      HOP_CLICK_FLUSH_INTERVAL: '200ms',
      HOP_L1_TTL: '60s',
    };
    const redis = new Redis(REDIS_URL);
    t.after(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    // One at a time: the first applies the migrations, the others find them applied.
    const a = killAfter(t, await startHop(env));
    const b = killAfter(t, await startHop(env));
    const c = killAfter(t, await startHop(env));
    const worker = killAfter(t, await startHopWorker(env));
    const others = [b, c];

    // Created on A, redirected by B and C.
    const created = await post(a.url, '/v1/links', { destination: 'https://example.com/first' });
    assert.equal(created.status, 201);
    const { id, code } = created.json as { id: string; code: string };
    for (const other of others) {
      const ms = await timeUntil(
        async () => (await redirectOf(other.url, code)).status === 302,
        'the create reaching another instance',
      );
      process.stdout.write(`# create on A redirecting on ${other.url}: ${ms} ms\n`);
      assert.deepEqual(await redirectOf(other.url, code), {
        status: 302,
        location: 'https://example.com/first',
      });
    }

    // Edited on B: A and C hold the old destination in L1 (just read), and drop it.
    for (const holder of [a, c]) {
      assert.equal((await redirectOf(holder.url, code)).location, 'https://example.com/first');
    }
    const edited = await fetch(`${b.url}/v1/links/${id}`, {
      method: 'PATCH',
      headers: AUTH,
      body: JSON.stringify({ destination: 'https://example.com/moved' }),
    });
    assert.equal(edited.status, 200);
    for (const holder of [a, c]) {
      const ms = await timeUntil(
        async () => (await redirectOf(holder.url, code)).location === 'https://example.com/moved',
        'the edit reaching another instance',
      );
      process.stdout.write(`# edit on B seen on ${holder.url}: ${ms} ms (L1 TTL 60 s)\n`);
    }

    // Disabled on C: A and B answer 404 well inside their L1 TTL.
    assert.equal((await post(c.url, `/v1/links/${id}/disable`)).status, 200);
    for (const holder of [a, b]) {
      const ms = await timeUntil(
        async () => (await redirectOf(holder.url, code)).status === 404,
        'the disable reaching another instance',
      );
      process.stdout.write(`# disable on C seen on ${holder.url}: ${ms} ms (L1 TTL 60 s)\n`);
    }
    assert.equal((await post(a.url, `/v1/links/${id}/enable`)).status, 200);
    for (const instance of [a, b, c]) {
      await eventually(
        async () => (await redirectOf(instance.url, code)).status === 302,
        'the enable reaching every instance',
        3000,
      );
    }

    // Clicks on all three, counted exactly once by the worker (folded into PostgreSQL).
    const clicked = await post(a.url, '/v1/links', { destination: 'https://example.com/counted' });
    const counted = clicked.json as { id: string; code: string };
    const perInstance = 3000;
    const results = await Promise.all(
      [a, b, c].map((instance) => sendClicks(`${instance.url}/${counted.code}`, perInstance, 30)),
    );
    for (const result of results) assert.deepEqual(result, { redirected: perInstance, failed: 0 });
    const total = 3 * perInstance;
    await eventually(
      async () => {
        return (await clicksOf(schema, counted.id)) >= total;
      },
      'every click folded',
      3000,
    );
    for (const instance of [a, b, c]) await stopHop(instance);
    const folded = await readMetric(worker.url, 'hop_click_events_folded_total');
    await stopHop(worker);
    assert.equal(await clicksOf(schema, counted.id), total, 'counted exactly once');
    // Every click the worker folded (the redirects above were clicks too, fetch's bots'
    // among them: ADR 0094) is in the totals.
    const all = await queryPostgres<{ clicks: number }>(
      schema,
      'SELECT sum(clicks + bot_clicks)::int AS clicks FROM click_totals',
    );
    assert.equal(all[0]?.clicks, folded);
  });

  test('an instance killed with SIGKILL during a create load: every 201 is stored whole; the other carries on', async (t) => {
    if (!(await requirePostgres(t))) return;
    const schema = testSchema(t);
    const env = {
      HOP_DATA_DIR: tempDataDir(t, 'hop-scale-'),
      HOP_DATABASE_URL: POSTGRES_URL,
      HOP_DATABASE_SCHEMA: schema,
      HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
    };
    const victim = killAfter(t, await startHop(env));
    const survivor = killAfter(t, await startHop(env));

    const acknowledged: { id: string; code: string; destination: string }[] = [];
    let failed = 0;
    let stopping = false;
    let sent = 0;
    const creator = (base: string) => async () => {
      while (!stopping) {
        const destination = `https://example.com/load/${sent++}`;
        try {
          const response = await fetch(`${base}/v1/links`, {
            method: 'POST',
            headers: AUTH,
            body: JSON.stringify({ destination }),
          });
          const body = (await response.json()) as { id: string; code: string };
          if (response.status === 201) acknowledged.push({ ...body, destination });
          else failed++;
        } catch {
          // The killed instance: connection reset, or refused from then on.
          failed++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    const load = Promise.all([
      ...Array.from({ length: 16 }, creator(victim.url)),
      ...Array.from({ length: 4 }, creator(survivor.url)),
    ]);
    await eventually(async () => acknowledged.length >= 300, '300 creates acknowledged', 3000);
    victim.child.kill('SIGKILL');
    assert.equal(await victim.exited, null, 'killed, not exited');
    const atKill = acknowledged.length;
    await eventually(
      async () => acknowledged.length >= atKill + 100,
      'the survivor creating after the kill',
      3000,
    );
    stopping = true;
    await load;
    await stopHop(survivor);

    const stored = await queryPostgres<{
      id: string;
      code: string;
      destination: string;
      state: string;
      version: number;
    }>(schema, 'SELECT id, code, destination, state, version FROM links');
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const link of acknowledged) {
      const row = byId.get(link.id);
      assert.ok(row !== undefined, `acknowledged link ${link.id} is stored`);
      assert.deepEqual(
        { code: row.code, destination: row.destination, state: row.state, version: row.version },
        { code: link.code, destination: link.destination, state: 'active', version: 1 },
      );
    }
    // Whatever else is stored (a create committed while its answer was lost) is whole too.
    for (const row of stored) {
      assert.match(row.destination, /^https:\/\/example\.com\/load\/\d+$/);
      assert.equal(row.state, 'active');
    }
    process.stdout.write(
      `# ${acknowledged.length} creates acknowledged, ${stored.length} stored, ${failed} failed or cut off\n`,
    );
  });
});

describe('on PostgreSQL without NATS', () => {
  test('two instances fold their own clicks into PostgreSQL, each click once', async (t) => {
    if (!(await requirePostgres(t))) return;
    const schema = testSchema(t);
    const env = {
      HOP_DATA_DIR: tempDataDir(t, 'hop-scale-'),
      HOP_DATABASE_URL: POSTGRES_URL,
      HOP_DATABASE_SCHEMA: schema,
      HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
      HOP_CLICK_FLUSH_INTERVAL: '200ms',
    };
    const a = killAfter(t, await startHop(env));
    const b = killAfter(t, await startHop(env));
    const created = await post(a.url, '/v1/links', { destination: 'https://example.com/direct' });
    const link = created.json as { id: string; code: string };
    // Without Redis, B learns of A's create by its next catch-up (about a second): until
    // then the code is a 404 there, which counts no click. The first 302 counts one, a
    // bot's (fetch's user agent: ADR 0094).
    await eventually(
      async () => (await redirectOf(b.url, link.code)).status === 302,
      'the create reaching B',
      3000,
    );
    const results = await Promise.all(
      [a, b].map((instance) => sendClicks(`${instance.url}/${link.code}`, 2000, 20)),
    );
    for (const result of results) assert.deepEqual(result, { redirected: 2000, failed: 0 });
    // SIGTERM flushes what is still buffered.
    await stopHop(a);
    await stopHop(b);
    assert.equal(await clicksOf(schema, link.id), 4000, 'the 4,000 clicks');
    const bots = await queryPostgres<{ bot_clicks: number }>(
      schema,
      'SELECT bot_clicks::int AS bot_clicks FROM click_totals WHERE link_id = $1',
      [link.id],
    );
    assert.equal(bots[0]?.bot_clicks, 1, 'the first redirect on B');
  });
});
