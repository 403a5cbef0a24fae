import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLink } from '../support/create-link.js';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { setCookiePair, visit } from '../support/smart-visits.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';
import { DESKTOP } from '../support/user-agents.js';

/**
 * Issue 21's password links on hop itself (ADR 0110): the form, the form's POST, the pass
 * cookie, the X-Link-Password header, the throttle, a password changed or removed by
 * PATCH, HEAD; and clicks counted only for the redirects served.
 */

const PASSWORD = 'open sesame';
const DESTINATION = 'https://example.com/secret';
const HTML = { accept: 'text/html' };

describe('password links on hop', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const passwordLink = (extra: Record<string, unknown> = {}) =>
    createLink(server, { destination: DESTINATION, password: PASSWORD, ...extra });
  const postForm = (pathAndQuery: string, body: string) =>
    server.request('POST', `/${pathAndQuery}`, {
      key: null,
      rawBody: body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': DESKTOP,
        ...HTML,
      },
    });
  const passCookie = (response: TestResponse, linkId: string) => {
    const pair = setCookiePair(response, `hop_pass_${linkId}=`);
    assert.ok(pair !== undefined, `a pass cookie: ${response.headers.getSetCookie().join(' | ')}`);
    return pair;
  };
  const clicksOf = async (linkId: string) => {
    await settleClicks(server);
    return (await server.request('GET', `/v1/links/${linkId}`)).json.clicks as number;
  };

  test('the link JSON says password_protected and never shows the password', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: DESTINATION, password: PASSWORD },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.password_protected, true);
    assert.equal('password' in created.json, false);
    assert.doesNotMatch(created.text, /open sesame/);
    const read = await server.request('GET', `/v1/links/${created.json.id}`);
    assert.equal(read.json.password_protected, true);
    assert.doesNotMatch(read.text, /open sesame/);
  });

  test('GET: the form, 200, never stored, with a CSP; HEAD the same without a body', async () => {
    const link = await passwordLink();
    const form = await visit(server, link.code, HTML);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(form.headers.get('cache-control'), 'no-store');
    assert.match(form.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(form.text, /<form[^>]*method="post"/i);
    assert.match(form.text, /name="password"/);
    assert.equal(form.headers.get('location'), null);
    const head = await visit(server, link.code, HTML, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-length'), form.headers.get('content-length'));
    assert.equal(await clicksOf(link.id), 0);
  });

  test('the form: a right password redirects with a pass, a wrong one is 401; the pass goes straight through', async () => {
    const link = await passwordLink();
    const wrong = await postForm(link.code, 'password=not+it');
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(wrong.text, /name="password"/);
    assert.deepEqual(wrong.headers.getSetCookie(), []);
    const empty = await postForm(link.code, 'password=');
    assert.equal(empty.status, 401);

    const right = await postForm(link.code, `password=${encodeURIComponent(PASSWORD)}`);
    assert.equal(right.status, 302, right.text);
    assert.equal(right.headers.get('location'), DESTINATION);
    const cookie = passCookie(right, link.id);
    const attributes = right.headers.getSetCookie().find((c) => c.startsWith('hop_pass_')) ?? '';
    assert.match(attributes, /Max-Age=86400/);
    assert.match(attributes, /HttpOnly/);
    assert.match(attributes, new RegExp(`Path=/${link.code}(;|$)`));

    const through = await visit(server, link.code, { ...HTML, cookie });
    assert.equal(through.status, 302);
    assert.equal(through.headers.get('location'), DESTINATION);
    assert.deepEqual(through.headers.getSetCookie(), [], 'a valid pass is not renewed');
    // Another link's pass opens nothing here.
    const other = await passwordLink();
    const elsewhere = await visit(server, other.code, {
      ...HTML,
      cookie: cookie.replace(link.id, other.id),
    });
    assert.equal(elsewhere.status, 200);
    // Served: the form's redirect and the pass's; not the form, not the wrong tries.
    assert.equal(await clicksOf(link.id), 2);
  });

  test('X-Link-Password: right 302 with a pass, wrong 401 problem+json', async () => {
    const link = await passwordLink();
    const wrong = await visit(server, link.code, { 'x-link-password': 'not it at all' });
    assertProblem(wrong, 401, 'wrong-password');
    const right = await visit(server, link.code, { 'x-link-password': PASSWORD });
    assert.equal(right.status, 302);
    assert.equal(right.headers.get('location'), DESTINATION);
    const cookie = passCookie(right, link.id);
    assert.equal((await visit(server, link.code, { cookie })).status, 302);
    // HEAD with the right password answers the redirect and counts nothing.
    const head = await visit(server, link.code, { 'x-link-password': PASSWORD }, 'HEAD');
    assert.equal(head.status, 302);
    assert.equal(head.headers.get('location'), DESTINATION);
    assert.equal(await clicksOf(link.id), 2);
  });

  test('five wrong tries, then 429 (even for the right password), by header and by form', async () => {
    const link = await passwordLink();
    for (let i = 0; i < 5; i++) {
      assertProblem(await visit(server, link.code, { 'x-link-password': `wrong ${i}!` }), 401);
    }
    const throttled = await visit(server, link.code, { 'x-link-password': PASSWORD });
    assertProblem(throttled, 429, 'rate-limited');
    assert.ok(Number(throttled.headers.get('retry-after')) > 0);
    const form = await postForm(link.code, `password=${encodeURIComponent(PASSWORD)}`);
    assert.equal(form.status, 429);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(Number(form.headers.get('retry-after')) > 0);
    // Another link from the same client is not throttled.
    const other = await passwordLink();
    assert.equal((await visit(server, other.code, { 'x-link-password': PASSWORD })).status, 302);
    assert.equal(await clicksOf(link.id), 0);
  });

  test('a password changed by PATCH ends the pass; null removes the protection', async () => {
    const link = await passwordLink();
    const right = await visit(server, link.code, { 'x-link-password': PASSWORD });
    const cookie = passCookie(right, link.id);
    assert.equal((await visit(server, link.code, { cookie })).status, 302);

    const changed = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { password: 'a new secret' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.json.password_protected, true);
    assert.equal((await visit(server, link.code, { ...HTML, cookie })).status, 200, 'form again');
    assertProblem(await visit(server, link.code, { 'x-link-password': PASSWORD }), 401);
    assert.equal(
      (await visit(server, link.code, { 'x-link-password': 'a new secret' })).status,
      302,
    );

    const removed = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { password: null },
    });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.json.password_protected, false);
    const open = await visit(server, link.code, HTML);
    assert.equal(open.status, 302);
    assert.equal(open.headers.get('location'), DESTINATION);
  });

  test('the pass lasts 24 hours', async () => {
    const link = await passwordLink();
    const cookie = passCookie(
      await visit(server, link.code, { 'x-link-password': PASSWORD }),
      link.id,
    );
    server.clock.advance(24 * 3_600_000 - 1000);
    assert.equal((await visit(server, link.code, { cookie })).status, 302);
    server.clock.advance(2000);
    assert.equal((await visit(server, link.code, { ...HTML, cookie })).status, 200);
  });

  test('rules, variants and forwarding apply after the password', async () => {
    const link = await passwordLink({
      forward_query: true,
      rules: [{ destination: 'https://example.com/ruled?r=1', when: { query: { ref: true } } }],
      variants: [
        { destination: 'https://example.com/v1', weight: 1 },
        { destination: 'https://example.com/v2', weight: 1 },
      ],
    });
    // Before the password nothing is chosen: no destination, no variant cookie.
    const form = await visit(server, `${link.code}?ref=mail`, HTML);
    assert.equal(form.status, 200);
    assert.equal(setCookiePair(form, 'hop_v_'), undefined);
    const ruled = await postForm(
      `${link.code}?ref=mail`,
      `password=${encodeURIComponent(PASSWORD)}`,
    );
    assert.equal(ruled.status, 302, ruled.text);
    assert.equal(ruled.headers.get('location'), 'https://example.com/ruled?r=1&ref=mail');
    const cookie = passCookie(ruled, link.id);
    const drawn = await visit(server, `${link.code}?x=1`, { cookie });
    assert.match(drawn.headers.get('location') ?? '', /^https:\/\/example\.com\/v[12]\?x=1$/);
    assert.ok(setCookiePair(drawn, 'hop_v_') !== undefined, 'the variant drawn is kept');
  });

  test('a POST to a link without a password, or to no link, is the 404', async () => {
    const plain = await createLink(server, { destination: DESTINATION });
    assert.equal((await postForm(plain.code, 'password=whatever')).status, 404);
    const smartNoPassword = await createLink(server, {
      destination: DESTINATION,
      forward_query: true,
    });
    assert.equal((await postForm(smartNoPassword.code, 'password=whatever')).status, 404);
    assert.equal((await postForm('NoSuchCode', 'password=whatever')).status, 404);
  });

  test('the form is answered 302 even for a 307 or 308 link: the password is never posted on', async () => {
    for (const status_code of [307, 308]) {
      const link = await passwordLink({ status_code });
      const right = await postForm(link.code, `password=${encodeURIComponent(PASSWORD)}`);
      assert.equal(right.status, 302);
      assert.equal(right.headers.get('location'), DESTINATION);
    }
  });

  test('an Idempotency-Key replayed with another password is refused', async () => {
    const create = (password: string) =>
      server.request('POST', '/v1/links', {
        body: { destination: DESTINATION, password },
        headers: { 'idempotency-key': `pw-${PASSWORD.length}-replay` },
      });
    assert.equal((await create('first password')).status, 201);
    assert.equal((await create('first password')).status, 200);
    assertProblem(await create('other password'), 422, 'idempotency-key-reused');
  });

  test("a password link's POST that is no form is a 415 problem, a form over 4 KiB a 413", async () => {
    const link = await passwordLink();
    const json = await server.request('POST', `/${link.code}`, {
      key: null,
      body: { password: PASSWORD },
    });
    assertProblem(json, 415, 'unsupported-media-type');
    const huge = await postForm(link.code, `password=${'x'.repeat(5000)}`);
    assertProblem(huge, 413, 'payload-too-large');
  });

  test("a password link with variants: the form's redirect sets the pass and the variant, one line each", async () => {
    const link = await passwordLink({
      variants: [
        { destination: 'https://example.com/a', weight: 50 },
        { destination: 'https://example.com/b', weight: 50 },
      ],
    });
    const right = await postForm(link.code, `password=${encodeURIComponent(PASSWORD)}`);
    assert.equal(right.status, 302, right.text);
    assert.match(right.headers.get('location') ?? '', /^https:\/\/example\.com\/[ab]$/);
    const lines = right.headers.getSetCookie();
    assert.equal(lines.length, 2, lines.join(' | '));
    passCookie(right, link.id);
    assert.ok(setCookiePair(right, 'hop_v_') !== undefined, lines.join(' | '));
  });
});
