import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { createLink } from '../support/create-link.js';
import { eventually } from '../support/eventually.js';
import { startPostgresPair } from '../support/postgres-pair.js';
import { whenPostgres } from '../support/require-postgres.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';
import { landing, setCookiePair, visit } from '../support/smart-visits.js';
import type { TestServer } from '../support/test-server.js';
import { IPHONE } from '../support/user-agents.js';

/**
 * Issue 21 scaled out: two instances on one PostgreSQL schema and one Redis (L2). A smart
 * link made on A is served by B as A would (its rules, variants and password travel in
 * the cached entry), and a PATCH on A reaches B by the link's version.
 */

const PASSWORD = 'open sesame';

/** Two instances on PostgreSQL and Redis under a prefix of their own, removed after. */
async function startScaledOut(t: TestContext) {
  const prefix = uniquePrefix();
  const admin = new Redis(REDIS_URL);
  t.after(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });
  const pair = await startPostgresPair(t, {
    HOP_REDIS_URL: REDIS_URL,
    HOP_REDIS_PREFIX: prefix,
    HOP_COUNTRY_HEADER: 'cf-ipcountry',
    // Pass cookies are signed with it: the same on every instance, as the docs ask.
    HOP_CONSOLE_SECRET: 'smart-links-scaled-out-secret-0123456789',
    // How changes travel is tested, not the timeouts: generous ones for a busy machine.
    HOP_STORE_TIMEOUT: '2s',
    HOP_CACHE_TIMEOUT: '5s',
  });
  return { ...pair, prefix, admin };
}

/** The L2 hits an instance has counted. */
async function l2Hits(server: TestServer): Promise<number> {
  const metrics = await server.request('GET', '/metrics', { key: null });
  const line = /^hop_l2_requests_total\{result="hit"\} (\d+)$/m.exec(metrics.text);
  return line === null ? 0 : Number(line[1]);
}

await whenPostgres('smart links scaled out (needs PostgreSQL and Redis)', () => {
  describe('smart links on two instances sharing PostgreSQL and Redis', () => {
    test("B serves A's smart link from L2 as A does: rules, variants, password", async (t) => {
      if (!(await requireRedis(t))) return;
      const { a, b, prefix, admin } = await startScaledOut(t);
      const link = await createLink(a, {
        destination: 'https://example.com/default',
        password: PASSWORD,
        forward_query: true,
        rules: [
          { destination: 'https://example.com/de', status_code: 307, when: { country: ['DE'] } },
          { destination: 'https://example.com/mobile', when: { device: ['mobile'] } },
        ],
        variants: [
          { destination: 'https://example.com/v1', weight: 1 },
          { destination: 'https://example.com/v2', weight: 1 },
        ],
      });
      const asA = await visit(a, `${link.code}?x=1`, { 'x-link-password': PASSWORD });
      assert.equal(asA.status, 302);
      // A put the entry in L2; B has never seen the code.
      await eventually(
        async () => (await admin.keys(`${prefix}*${link.code}`)).length > 0,
        "A's entry reaching L2",
      );
      const hitsBefore = await l2Hits(b);
      const passed = { 'x-link-password': PASSWORD };
      assert.equal(
        await landing(b, `${link.code}?x=1`, { ...passed, 'cf-ipcountry': 'DE' }),
        '307 https://example.com/de?x=1',
      );
      assert.equal(await l2Hits(b), hitsBefore + 1, 'B read the smart link from L2');
      assert.equal(
        await landing(b, link.code, { ...passed, 'user-agent': IPHONE }),
        '302 https://example.com/mobile',
      );
      // The password, on B: the form without one, 401 for a wrong one.
      assert.equal((await visit(b, link.code, { accept: 'text/html' })).status, 200);
      assert.equal((await visit(b, link.code, { 'x-link-password': 'not it!' })).status, 401);
      // A's pass and A's variant cookie hold on B.
      const pass = setCookiePair(asA, `hop_pass_${link.id}=`);
      const variant = setCookiePair(asA, `hop_v_${link.id}=`);
      assert.ok(pass !== undefined && variant !== undefined, asA.headers.getSetCookie().join());
      const onB = await visit(b, `${link.code}?x=1`, { cookie: `${pass}; ${variant}` });
      assert.equal(onB.status, 302);
      assert.equal(onB.headers.get('location'), asA.headers.get('location'));
      assert.deepEqual(onB.headers.getSetCookie(), [], 'nothing new to remember');
    });

    test('a PATCH of rules on A is seen by B; so is a password removed', async (t) => {
      if (!(await requireRedis(t))) return;
      const { a, b } = await startScaledOut(t);
      const link = await createLink(a, {
        destination: 'https://example.com/default',
        rules: [{ destination: 'https://example.com/old', when: { country: ['FR'] } }],
      });
      const fromFrance = { 'cf-ipcountry': 'FR' };
      // B caches the first version (L1 and L2).
      assert.equal(await landing(b, link.code, fromFrance), '302 https://example.com/old');
      const patched = await a.request('PATCH', `/v1/links/${link.id}`, {
        body: {
          rules: [{ destination: 'https://example.com/new', when: { country: ['FR'] } }],
          password: PASSWORD,
        },
      });
      assert.equal(patched.status, 200, patched.text);
      await eventually(
        async () =>
          (await landing(b, link.code, { ...fromFrance, 'x-link-password': PASSWORD })) ===
          '302 https://example.com/new',
        'the new rules reaching B',
      );
      assert.equal((await visit(b, link.code, fromFrance)).status, 200, 'the form, on B');
      const opened = await a.request('PATCH', `/v1/links/${link.id}`, {
        body: { password: null },
      });
      assert.equal(opened.status, 200, opened.text);
      await eventually(
        async () => (await landing(b, link.code, fromFrance)) === '302 https://example.com/new',
        'the password removed on B',
      );
    });

    test("B sends A's expired link to its fallback; a disable on A makes it B's 404", async (t) => {
      if (!(await requireRedis(t))) return;
      const { a, b } = await startScaledOut(t);
      const HOUR = 3_600_000;
      const link = await createLink(a, {
        destination: 'https://example.com/soon-gone',
        expires_at: new Date(a.clock.now() + HOUR).toISOString(),
        fallback_url: 'https://example.com/fallback',
      });
      assert.equal(await landing(b, link.code), '302 https://example.com/soon-gone');
      a.clock.advance(2 * HOUR);
      b.clock.advance(2 * HOUR);
      const expired = await visit(b, link.code);
      assert.equal(expired.headers.get('location'), 'https://example.com/fallback');
      assert.equal(expired.headers.get('cache-control'), 'no-store');
      const disabled = await a.request('POST', `/v1/links/${link.id}/disable`);
      assert.equal(disabled.status, 200, disabled.text);
      await eventually(
        async () => (await landing(b, link.code)) === '404',
        'the disable reaching B',
      );
    });

    test('max_clicks holds across the pair, fallback included', async (t) => {
      if (!(await requireRedis(t))) return;
      const { a, b } = await startScaledOut(t);
      const link = await createLink(a, {
        destination: 'https://example.com/limited',
        max_clicks: 3,
        fallback_url: 'https://example.com/gone',
      });
      const answers: string[] = [];
      for (let i = 0; i < 8; i++) answers.push(await landing(i % 2 === 0 ? a : b, link.code));
      assert.equal(answers.filter((x) => x === '302 https://example.com/limited').length, 3);
      assert.equal(answers.filter((x) => x === '302 https://example.com/gone').length, 5);
    });
  });
});
