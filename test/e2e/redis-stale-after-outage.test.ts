import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { deferrer } from '../support/deferred-cleanups.js';
import { eventually } from '../support/eventually.js';
import { requireRedisServer, startOwnRedis } from '../support/own-redis.js';
import { startHop, stopHop, type ServeProcess, metric } from '../support/hop-process.js';

const ADMIN_KEY = 'hop_e2e_redis_stale_admin_key_01234';
const PREFIX = 'hop-e2e-redis-stale:';
/** A small L1, so that asking for OTHERS other codes pushes a link out of it. */
const L1_MAX_ENTRIES = 20;
const OTHERS = 2 * L1_MAX_ENTRIES;
/** Generous poll budgets (10 ms apart): bounds on a wait, never claims about speed. */
const POLLS = 3000;

const BREAKER = 'hop_l2_breaker_state';

async function api(hop: ServeProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${hop.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text };
}

async function createLink(hop: ServeProcess, destination: string) {
  const created = await api(hop, 'POST', '/v1/links', { destination });
  assert.equal(created.status, 201, created.text);
  return JSON.parse(created.text) as { id: string; code: string };
}

/** One redirect, as `status location`. */
async function redirect(hop: ServeProcess, code: string): Promise<string> {
  const response = await fetch(`${hop.url}/${code}`, { redirect: 'manual' });
  await response.arrayBuffer();
  return `${response.status} ${response.headers.get('location')}`;
}

describe('SPEC §5 and §9: Redis stalls while links change, then comes back with its data', () => {
  test('an edit and a disable made during the stall are not undone by the old L2 entries', async (t) => {
    if (!requireRedisServer(t)) return;
    const defer = deferrer(t);
    const tempDir = (prefix: string) => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      defer(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    };
    const redis = await startOwnRedis(t);
    defer(() => redis.thaw()); // a stopped process is killed all the same; thawed, it can flush its output
    const env = {
      HOP_DATA_DIR: tempDir('hop-redis-stale-'),
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_REDIS_URL: redis.url,
      HOP_REDIS_PREFIX: PREFIX,
      HOP_L1_MAX_ENTRIES: String(L1_MAX_ENTRIES),
    };
    // `a` takes the changes; `b` shares the database and Redis and hears of them only
    // through Redis, as another instance behind the load balancer.
    const a = await startHop(env);
    defer(() => a.child.kill('SIGKILL'));
    const b = await startHop(env);
    defer(() => b.child.kill('SIGKILL'));
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => {}); // frozen on purpose for part of the test
    defer(() => admin.disconnect());
    const logs = () => `a:\n${a.output()}\nb:\n${b.output()}\nredis-server:\n${redis.output()}`;

    const edited = await createLink(a, 'https://example.com/before-edit');
    const disabled = await createLink(a, 'https://example.com/before-disable');
    const others: string[] = [];
    for (let i = 0; i < OTHERS; i++) {
      others.push((await createLink(a, `https://example.com/other/${i}`)).code);
    }
    /** Asks for every other code, which pushes the two links out of L1; whether all redirected. */
    const evict = async (hop: ServeProcess) => {
      let redirected = true;
      for (const other of others) {
        if (!(await redirect(hop, other)).startsWith('302 ')) redirected = false;
      }
      return redirected;
    };
    const OLD = `302 https://example.com/before-edit`;
    const NEW = `302 https://example.com/after-edit`;
    /** Both links, each out of L1 first: whatever L2 holds is what gets asked. */
    const answers = async (hop: ServeProcess) => {
      const othersBefore = await evict(hop);
      const editedNow = await redirect(hop, edited.code);
      const othersBetween = await evict(hop);
      const disabledNow = await redirect(hop, disabled.code);
      return { others: othersBefore && othersBetween, edited: editedNow, disabled: disabledNow };
    };
    const RIGHT = { others: true, edited: NEW, disabled: '404 null' };

    // Both instances have served both links, and Redis holds them.
    await eventually(
      async () => {
        // A code made on `a` can be a 404 on `b` for about a second (ADR 0024).
        const [onA, onB] = [await answers(a), await answers(b)];
        return onA.others && onB.others && onA.edited === OLD && onB.edited === OLD;
      },
      `both instances redirecting\n${logs()}`,
      POLLS,
    );
    await eventually(
      async () =>
        (await admin.exists(PREFIX + edited.code)) === 1 &&
        (await admin.exists(PREFIX + disabled.code)) === 1,
      'both links in Redis',
    );

    // Redis stalls; once `a`'s breaker is open, nothing `a` writes is even sent.
    redis.freeze();
    await eventually(
      async () => {
        await evict(a);
        return (await metric(a, BREAKER)) === 2;
      },
      `the breaker opening on a\n${logs()}`,
      POLLS,
    );
    const patch = await api(a, 'PATCH', `/v1/links/${edited.id}`, {
      destination: 'https://example.com/after-edit',
    });
    assert.equal(patch.status, 200, patch.text);
    const disable = await api(a, 'POST', `/v1/links/${disabled.id}/disable`);
    assert.equal(disable.status, 200, disable.text);
    assert.deepEqual(await answers(a), RIGHT, `during the stall\n${logs()}`);

    // Redis answers again, with the entries from before the changes. Neither instance is
    // asked for the two links until Redis holds their new versions: only what `a` kept
    // from the stall can put them there (a read through an instance would repair them).
    redis.thaw();
    const versionInRedis = async (code: string) =>
      Number(/^~?(\d+)/.exec((await admin.get(PREFIX + code)) ?? '')?.[1] ?? 0);
    await eventually(
      async () =>
        (await versionInRedis(edited.code)) >= 2 && (await versionInRedis(disabled.code)) >= 2,
      `the changes reaching Redis once it answers (the old entries live for 24 h)\n${logs()}`,
      POLLS,
    );
    // `b` never saw the changes, and its L1 held the old entries. From now on, on both
    // instances, whatever answers (Redis, or the store when a read of Redis times out):
    // never the old destination, never the disabled link.
    for (let round = 0; round < 3; round++) {
      for (const hop of [a, b]) {
        assert.deepEqual(await answers(hop), RIGHT, logs());
      }
    }

    await stopHop(a);
    await stopHop(b);
  });
});
