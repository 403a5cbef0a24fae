import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashApiKey } from '../../src/services/keys/hash-api-key.js';
import { assertProblem } from '../support/problem-assertions.js';
import {
  startTestServer,
  type RequestOptions,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';

/**
 * The admin console's server side (SPEC §8) over HTTP: sign-in and its refusals,
 * the signed session cookie and every way it can be wrong, CSRF on the v1 API, sign-out,
 * the dashboard, the page and its assets. Browser flows are in test/e2e/console-browser.
 */

const TWELVE_HOURS_S = 12 * 3600;
const COOKIE_ATTRIBUTES = `Path=/; Max-Age=${TWELVE_HOURS_S}; HttpOnly; SameSite=Strict`;
const CLEARED_COOKIE = 'hop_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict';

interface SignedIn {
  /** `hop_console=<token>`, as a browser would send it back. */
  readonly cookie: string;
  readonly token: string;
  readonly csrf: string;
  readonly keyId: string;
}

/** The server's console secret in these tests, so they can sign tokens as it does. */
const CONSOLE_SECRET = 'console-test-secret-0123456789abcdef';

/**
 * A session token signed as console-sessions.ts signs one: with the key's hash and the
 * server's secret (`secret` null: with the hash alone, as a copy of the key table allows).
 */
function signedToken(
  keyId: string,
  key: string,
  expiresAt: number,
  secret: string | null = CONSOLE_SECRET,
): string {
  const keyHash = hashApiKey(key);
  const macKey = secret === null ? keyHash : createHmac('sha256', secret).update(keyHash).digest();
  const message = `session|${keyId}|${expiresAt}`;
  return `${keyId}.${expiresAt}.${createHmac('sha256', macKey).update(message).digest('base64url')}`;
}

/** Request options of a browser with this console cookie (no bearer key). */
function asConsole(cookie: string, headers: Record<string, string> = {}): RequestOptions {
  return { key: null, headers: { cookie, ...headers } };
}

function assertNoCookieSet(response: TestResponse): void {
  assert.equal(response.headers.get('set-cookie'), null, 'a refusal sets no cookie');
}

/** A refused request: the problem, a detail that says why, and no cookie. */
function assertRefused(response: TestResponse, status: number, kind: string, detail: RegExp): void {
  assertProblem(response, status, kind);
  assert.match(response.json.detail, detail);
  assertNoCookieSet(response);
}

async function postSignIn(server: TestServer, options: RequestOptions): Promise<TestResponse> {
  return server.request('POST', '/admin/session', { key: null, ...options });
}

async function signIn(server: TestServer, key: string): Promise<SignedIn> {
  const response = await postSignIn(server, { body: { key } });
  assert.equal(response.status, 200, response.text);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  return {
    cookie,
    token: cookie.slice('hop_console='.length),
    csrf: response.json.csrf_token,
    keyId: response.json.key_id,
  };
}

describe('admin console over HTTP', () => {
  let server: TestServer;
  let admin: SignedIn;
  before(async () => {
    server = await startTestServer({ HOP_CONSOLE_SECRET: CONSOLE_SECRET });
    admin = await signIn(server, server.adminKey);
  });
  after(async () => {
    await server.close();
  });

  /** An admin key of its own, so revoking it leaves the test server's key alone. */
  async function issueKey(owner: string, isAdmin: boolean): Promise<{ id: string; key: string }> {
    const issued = await server.request('POST', '/v1/keys', { body: { owner, admin: isAdmin } });
    assert.equal(issued.status, 201, issued.text);
    return { id: issued.json.id, key: issued.json.key };
  }

  async function createLink(destination: string): Promise<{ id: string; code: string }> {
    const created = await server.request('POST', '/v1/links', { body: { destination } });
    assert.equal(created.status, 201, created.text);
    return created.json;
  }

  async function sessionStatus(token: string): Promise<TestResponse> {
    return server.request('GET', '/admin/session', asConsole(`hop_console=${token}`));
  }

  describe('POST /admin/session (sign in)', () => {
    test('the right admin key: 200 with the session and an HttpOnly SameSite=Strict cookie', async () => {
      const response = await postSignIn(server, { body: { key: server.adminKey } });
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(response.json).sort(), [
        'admin',
        'csrf_token',
        'expires_at',
        'key_id',
        'owner',
        'scopes',
      ]);
      assert.equal(response.json.owner, 'admin');
      assert.equal(response.json.admin, true);
      // Issue 22: an admin holds every scope.
      assert.deepEqual([...response.json.scopes].sort(), [
        'analytics:read',
        'domains:write',
        'keys:write',
        'links:read',
        'links:write',
        'webhooks:write',
      ]);
      assert.match(response.json.key_id, /^[0-9A-Z]{26}$/);
      assert.equal(
        response.json.expires_at,
        new Date(server.clock.now() + TWELVE_HOURS_S * 1000).toISOString(),
      );
      assert.match(response.json.csrf_token, /^[A-Za-z0-9_-]{43}$/);
      const setCookie = response.headers.get('set-cookie') ?? '';
      const token = signedToken(
        response.json.key_id,
        server.adminKey,
        Date.parse(response.json.expires_at),
      );
      assert.equal(setCookie, `hop_console=${token}; ${COOKIE_ATTRIBUTES}`);
      assert.ok(!setCookie.includes('Secure'), 'no Secure on an http public URL');
    });

    test('an unknown key: 401, no cookie', async () => {
      const response = await postSignIn(server, {
        body: { key: 'hop_not_a_key_anyone_has_000000' },
      });
      assertRefused(response, 401, 'unauthorized', /unknown or revoked/);
    });

    test("an owner's key: 200, a session that says it is not an admin's (ADR 0096)", async () => {
      const { id, key } = await issueKey('team-console', false);
      const response = await postSignIn(server, { body: { key } });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.json.owner, 'team-console');
      assert.equal(response.json.admin, false);
      assert.deepEqual(response.json.scopes, [
        'links:read',
        'links:write',
        'analytics:read',
        'webhooks:write',
      ]);
      assert.equal(response.json.key_id, id);
      assert.match(response.headers.get('set-cookie') ?? '', /^hop_console=/);
    });

    test('a key with control characters: 401, not looked up', async () => {
      for (const key of [`${server.adminKey}\n`, `\t${server.adminKey}`, 'hop_\u0000x']) {
        const response = await postSignIn(server, { body: { key } });
        assertRefused(response, 401, 'unauthorized', /unknown or revoked/);
      }
    });

    test('no key property: 422 naming the field', async () => {
      const response = await postSignIn(server, { body: {} });
      assertRefused(response, 422, 'invalid-request', /key: is required/);
      assert.deepEqual(response.json.errors, [{ field: 'key', detail: 'is required' }]);
    });

    test('an extra property: 422 naming it', async () => {
      const response = await postSignIn(server, { body: { key: server.adminKey, admin: true } });
      assertRefused(response, 422, 'invalid-request', /admin: is not a known field/);
    });

    test('a key longer than 512 characters: 422', async () => {
      const response = await postSignIn(server, { body: { key: 'k'.repeat(513) } });
      assertRefused(response, 422, 'invalid-request', /key: must have at most 512 characters/);
    });

    test('a key that is not a string: 422', async () => {
      const response = await postSignIn(server, { body: { key: 12345 } });
      assertRefused(response, 422, 'invalid-request', /key: must be a string/);
    });

    test('a body that is not JSON: 400', async () => {
      const response = await postSignIn(server, {
        rawBody: `{"key": "${server.adminKey}"`,
        headers: { 'content-type': 'application/json' },
      });
      assertRefused(response, 400, 'malformed-request', /not valid JSON/);
    });

    test('no body at all: 422, not a 500', async () => {
      const response = await postSignIn(server, {});
      assertRefused(response, 422, 'invalid-request', /The request body must be a JSON object/);
    });

    test('a form post (what a cross-site form can send): 415', async () => {
      const response = await postSignIn(server, {
        rawBody: `key=${server.adminKey}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertRefused(response, 415, 'unsupported-media-type', /application\/json/);
    });
  });

  describe('GET /admin/session', () => {
    test('with the cookie: 200 and the same CSRF token as at sign-in', async () => {
      const response = await server.request('GET', '/admin/session', asConsole(admin.cookie));
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.json.csrf_token, admin.csrf);
      assert.equal(response.json.key_id, admin.keyId);
      assert.equal(response.json.owner, 'admin');
    });

    test('without a cookie: 401', async () => {
      const response = await server.request('GET', '/admin/session', { key: null });
      assertProblem(response, 401, 'unauthorized');
      assert.match(response.json.detail, /Not signed in/);
    });

    test('a garbage cookie value: 401', async () => {
      for (const cookie of [
        'hop_console=garbage',
        'hop_console=',
        'hop_console=a.b.c',
        'hop_console=%00%01',
        `hop_console=${admin.token}x`,
      ]) {
        assertProblem(await server.request('GET', '/admin/session', asConsole(cookie)), 401);
      }
    });

    test('a forged MAC: 401', async () => {
      const [keyId, expiry, mac] = admin.token.split('.') as [string, string, string];
      const flipped = (mac.startsWith('A') ? 'B' : 'A') + mac.slice(1);
      assertProblem(await sessionStatus(`${keyId}.${expiry}.${flipped}`), 401, 'unauthorized');
      // The MAC of another key (signed with a key the server does not hold) is as good as none.
      const otherKeyToken = signedToken(keyId, 'hop_someone_elses_key_0000000000', Number(expiry));
      assertProblem(await sessionStatus(otherKeyToken), 401, 'unauthorized');
    });

    test('a token whose expiry was moved later, MAC kept: 401', async () => {
      const [keyId, expiry, mac] = admin.token.split('.') as [string, string, string];
      assertProblem(await sessionStatus(`${keyId}.${Number(expiry) + 1}.${mac}`), 401);
    });

    test('a correctly signed token naming an unknown key id: 401', async () => {
      const expiry = server.clock.now() + 60_000;
      const token = signedToken('01ZZZZZZZZZZZZZZZZZZZZZZZZ', server.adminKey, expiry);
      assertProblem(await sessionStatus(token), 401, 'unauthorized');
    });

    test("a correctly signed token of an owner's key: that owner's session, until revoked", async () => {
      const { id, key } = await issueKey('not-an-admin', false);
      const token = signedToken(id, key, server.clock.now() + 60_000);
      const session = await sessionStatus(token);
      assert.equal(session.status, 200, session.text);
      assert.deepEqual([session.json.owner, session.json.admin], ['not-an-admin', false]);
      await server.request('DELETE', `/v1/keys/${id}`);
      assertProblem(await sessionStatus(token), 401, 'unauthorized');
    });

    test('a correctly signed token whose expiry has passed: 401 (and one still due: 200)', async () => {
      const now = server.clock.now();
      // The control: the crafted token is signed right, so only its expiry can refuse it.
      const due = await sessionStatus(signedToken(admin.keyId, server.adminKey, now + 1));
      assert.equal(due.status, 200, due.text);
      for (const expiresAt of [now, now - 1, now - 24 * 3_600_000]) {
        const response = await sessionStatus(signedToken(admin.keyId, server.adminKey, expiresAt));
        assertProblem(response, 401, 'unauthorized');
      }
    });
  });

  test('a token made from the key table alone, without the server secret: 401', async () => {
    const now = server.clock.now();
    const control = signedToken(admin.keyId, server.adminKey, now + 60_000);
    assert.equal((await sessionStatus(control)).status, 200);
    const fromDump = signedToken(admin.keyId, server.adminKey, now + 60_000, null);
    assertProblem(await sessionStatus(fromDump), 401, 'unauthorized');
  });

  test('a correctly signed token that lasts longer than a sign-in gives: 401', async () => {
    const now = server.clock.now();
    // A sign-in's 12 hours, and the minute another instance's clock may be ahead.
    const longest = now + 12 * 3_600_000 + 60_000;
    const atLimit = await server.request('GET', '/admin/session', {
      key: null,
      headers: { cookie: `hop_console=${signedToken(admin.keyId, server.adminKey, longest)}` },
    });
    assert.equal(atLimit.status, 200, atLimit.text);
    for (const expiresAt of [longest + 1, now + 365 * 24 * 3_600_000, 999_999_999_999_999]) {
      const response = await server.request('GET', '/admin/session', {
        key: null,
        headers: { cookie: `hop_console=${signedToken(admin.keyId, server.adminKey, expiresAt)}` },
      });
      assertProblem(response, 401, 'unauthorized');
    }
  });

  test('a junk cookie of the same name before the real one does not lock the admin out', async () => {
    for (const junk of ['hop_console=junk!', 'hop_console=AAAA.1.BBBB', 'hop_console=']) {
      const response = await server.request('GET', '/admin/session', {
        key: null,
        headers: { cookie: `${junk}; ${admin.cookie}` },
      });
      assert.equal(response.status, 200, `${junk}: ${response.text}`);
    }
  });

  test("the console's API answers are never cached; a bearer caller's are left as they were", async () => {
    const viaCookie = await server.request('GET', '/v1/links', asConsole(admin.cookie));
    assert.equal(viaCookie.status, 200);
    assert.equal(viaCookie.headers.get('cache-control'), 'no-store');
    const viaBearer = await server.request('GET', '/v1/links');
    assert.equal(viaBearer.status, 200);
    assert.equal(viaBearer.headers.get('cache-control'), null);
  });

  test('revoking the admin key ends its console session at once', async () => {
    const { id, key } = await issueKey('ops-console', true);
    const session = await signIn(server, key);
    const whileValid = await server.request('GET', '/v1/links', asConsole(session.cookie));
    assert.equal(whileValid.status, 200, whileValid.text);

    assert.equal((await server.request('DELETE', `/v1/keys/${id}`)).status, 204);

    assertProblem(
      await server.request('GET', '/admin/session', asConsole(session.cookie)),
      401,
      'unauthorized',
    );
    const links = await server.request('GET', '/v1/links', asConsole(session.cookie));
    assertProblem(links, 401, 'unauthorized');
    assert.match(links.json.detail, /session has ended/);
    assertRefused(await postSignIn(server, { body: { key } }), 401, 'unauthorized', /revoked/);
  });

  describe('the v1 API with the session cookie', () => {
    const csrfRefusal = /X-CSRF-Token/;

    async function linksWithAlias(alias: string): Promise<unknown[]> {
      const listed = await server.request('GET', `/v1/links?q=${alias}`);
      assert.equal(listed.status, 200, listed.text);
      return listed.json.items;
    }

    test('GET /v1/links: 200, no token needed to read', async () => {
      const response = await server.request('GET', '/v1/links', asConsole(admin.cookie));
      assert.equal(response.status, 200, response.text);
      assert.ok(Array.isArray(response.json.items));
    });

    test('POST /v1/links without X-CSRF-Token: 403 and no link made', async () => {
      const response = await server.request('POST', '/v1/links', {
        ...asConsole(admin.cookie),
        body: { destination: 'https://example.com/no-token', alias: 'csrf-none' },
      });
      assertProblem(response, 403, 'forbidden');
      assert.match(response.json.detail, csrfRefusal);
      assert.deepEqual(await linksWithAlias('csrf-none'), []);
    });

    test('POST /v1/links with a wrong token: 403 and no link made', async () => {
      for (const token of ['', 'wrong', admin.csrf.slice(1), `${admin.csrf}x`, admin.token]) {
        const response = await server.request('POST', '/v1/links', {
          ...asConsole(admin.cookie, { 'x-csrf-token': token }),
          body: { destination: 'https://example.com/wrong-token', alias: 'csrf-wrong' },
        });
        assertProblem(response, 403, 'forbidden');
      }
      assert.deepEqual(await linksWithAlias('csrf-wrong'), []);
    });

    test("POST /v1/links with another session's token: 403", async () => {
      const first = await signIn(server, server.adminKey);
      // A later sign-in with the same key is another session, with a token of its own.
      server.clock.advance(1000);
      const second = await signIn(server, server.adminKey);
      assert.notEqual(first.token, second.token);
      assert.notEqual(first.csrf, second.csrf);
      const response = await server.request('POST', '/v1/links', {
        ...asConsole(second.cookie, { 'x-csrf-token': first.csrf }),
        body: { destination: 'https://example.com/other-session', alias: 'csrf-other' },
      });
      assertProblem(response, 403, 'forbidden');
      assert.deepEqual(await linksWithAlias('csrf-other'), []);
    });

    test('POST /v1/links with the right token: 201', async () => {
      const response = await server.request('POST', '/v1/links', {
        ...asConsole(admin.cookie, { 'x-csrf-token': admin.csrf }),
        body: { destination: 'https://example.com/with-token', alias: 'csrf-right' },
      });
      assert.equal(response.status, 201, response.text);
      assert.equal(response.json.owner, 'admin', 'the owner comes from the session');
      assert.equal((await linksWithAlias('csrf-right')).length, 1);
    });

    test('PATCH, DELETE, disable and enable without the token: 403, the link untouched', async () => {
      const link = await createLink('https://example.com/untouched');
      const attempts: [string, string, unknown][] = [
        ['PATCH', `/v1/links/${link.id}`, { destination: 'https://example.com/changed' }],
        ['DELETE', `/v1/links/${link.id}`, undefined],
        ['POST', `/v1/links/${link.id}/disable`, undefined],
        ['POST', `/v1/links/${link.id}/enable`, undefined],
        ['POST', '/v1/keys', { owner: 'minted-by-csrf', admin: true }],
        ['DELETE', `/v1/keys/${admin.keyId}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const response = await server.request(method, path, { ...asConsole(admin.cookie), body });
        assertProblem(response, 403, 'forbidden');
        assert.match(response.json.detail, csrfRefusal, `${method} ${path}`);
      }
      const unchanged = await server.request('GET', `/v1/links/${link.id}`);
      assert.equal(unchanged.json.state, 'active');
      assert.equal(unchanged.json.destination, 'https://example.com/untouched');
      assert.equal(unchanged.json.version, 1);
      assert.equal(
        (await server.request('GET', '/admin/session', asConsole(admin.cookie))).status,
        200,
      );
    });

    test("an owner's session sees and changes only that owner's links (ADR 0096)", async () => {
      const alice = await issueKey('console-alice', false);
      const bob = await issueKey('console-bob', false);
      const made = async (key: string, destination: string) => {
        const response = await server.request('POST', '/v1/links', { key, body: { destination } });
        assert.equal(response.status, 201, response.text);
        return response.json as { id: string; code: string };
      };
      const aliceLink = await made(alice.key, 'https://example.com/alice');
      const bobLink = await made(bob.key, 'https://example.com/bob');
      const session = await signIn(server, alice.key);
      const as = (headers: Record<string, string> = {}) => asConsole(session.cookie, headers);

      const listed = await server.request('GET', '/v1/links?limit=100', as());
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.json.items.map((link: { id: string }) => link.id),
        [aliceLink.id],
      );
      // Another owner's link does not exist for this session, as for Alice's own key.
      assertProblem(await server.request('GET', `/v1/links/${bobLink.id}`, as()), 404);
      const changeBob = await server.request('PATCH', `/v1/links/${bobLink.id}`, {
        ...as({ 'x-csrf-token': session.csrf }),
        body: { title: 'not yours' },
      });
      assertProblem(changeBob, 404);
      assertProblem(
        await server.request('GET', `/v1/links?owner=console-bob`, as()),
        403,
        'forbidden',
      );
      assertProblem(await server.request('GET', '/v1/keys', as()), 403, 'insufficient-scope');

      const own = await server.request('PATCH', `/v1/links/${aliceLink.id}`, {
        ...as({ 'x-csrf-token': session.csrf }),
        body: { title: 'mine' },
      });
      assert.equal(own.status, 200, own.text);
      const created = await server.request('POST', '/v1/links', {
        ...as({ 'x-csrf-token': session.csrf }),
        body: { destination: 'https://example.com/alice-2' },
      });
      assert.equal(created.json.owner, 'console-alice', 'made as the session owner');
      // The admin's session still sees both.
      const all = await server.request('GET', '/v1/links?limit=100', asConsole(admin.cookie));
      const ids = all.json.items.map((link: { id: string }) => link.id);
      assert.ok(ids.includes(aliceLink.id) && ids.includes(bobLink.id));
    });

    test('a bearer key takes precedence over the cookie', async () => {
      const { key } = await issueKey('bearer-wins', false);
      const keys = await server.request('GET', '/v1/keys', {
        key,
        headers: { cookie: admin.cookie },
      });
      assertProblem(keys, 403, 'insufficient-scope');
      // An unknown bearer key is refused, however good the cookie beside it.
      const unknown = await server.request('GET', '/v1/links', {
        key: 'hop_unknown_bearer_key_000000000',
        headers: { cookie: admin.cookie },
      });
      assertProblem(unknown, 401, 'unauthorized');
    });

    test('the session cookie among other cookies is still found', async () => {
      const response = await server.request(
        'GET',
        '/v1/keys',
        asConsole(`theme=dark; ${admin.cookie}; other=1`),
      );
      assert.equal(response.status, 200, response.text);
    });
  });

  describe('DELETE /admin/session (sign out)', () => {
    test('with the session and its token: 204 and the cookie cleared', async () => {
      // A millisecond on: a sign-in in the suite's own millisecond would be its session.
      server.clock.advance(1);
      const session = await signIn(server, server.adminKey);
      const response = await server.request(
        'DELETE',
        '/admin/session',
        asConsole(session.cookie, { 'x-csrf-token': session.csrf }),
      );
      assert.equal(response.status, 204, response.text);
      assert.equal(response.headers.get('set-cookie'), CLEARED_COOKIE);
      assert.equal(response.text, '');

      // A copy of the cookie kept past the sign-out opens nothing, and signing out again
      // with it is nothing to protect; the key's other session goes on.
      const copied = asConsole(session.cookie, { 'x-csrf-token': session.csrf });
      assertProblem(await server.request('GET', '/admin/session', copied), 401, 'unauthorized');
      assertProblem(await server.request('GET', '/v1/links', copied), 401, 'unauthorized');
      const create = await server.request('POST', '/v1/links', {
        ...copied,
        body: { destination: 'https://example.com/after-sign-out' },
      });
      assertProblem(create, 401, 'unauthorized');
      assert.equal((await server.request('DELETE', '/admin/session', copied)).status, 204);
      const other = await server.request('GET', '/admin/session', asConsole(admin.cookie));
      assert.equal(other.status, 200, other.text);
    });

    test('with the session but no token, or a wrong one: 403, the cookie kept', async () => {
      for (const headers of [{}, { 'x-csrf-token': 'not-the-token' }]) {
        const response = await server.request(
          'DELETE',
          '/admin/session',
          asConsole(admin.cookie, headers),
        );
        assertRefused(response, 403, 'forbidden', /X-CSRF-Token/);
      }
    });

    test('with no session, or one that has ended: 204, nothing left to protect', async () => {
      const expired = signedToken(admin.keyId, server.adminKey, server.clock.now() - 1);
      for (const cookie of [undefined, 'hop_console=garbage', `hop_console=${expired}`]) {
        const response = await server.request('DELETE', '/admin/session', {
          key: null,
          ...(cookie === undefined ? {} : { headers: { cookie } }),
        });
        assert.equal(response.status, 204, response.text);
        assert.equal(response.headers.get('set-cookie'), CLEARED_COOKIE);
      }
    });
  });

  describe('GET /admin/api/dashboard', () => {
    test('no credentials: 401', async () => {
      assertProblem(
        await server.request('GET', '/admin/api/dashboard', { key: null }),
        401,
        'unauthorized',
      );
    });

    test('a non-admin bearer key: 403', async () => {
      const { key } = await issueKey('dashboard-peeker', false);
      const response = await server.request('GET', '/admin/api/dashboard', { key });
      assertProblem(response, 403, 'forbidden');
      assert.match(response.json.detail, /admin/);
    });

    test("an owner's session: 403, the whole service's figures are not its to read", async () => {
      const { key } = await issueKey('dashboard-owner', false);
      const owner = await signIn(server, key);
      const response = await server.request('GET', '/admin/api/dashboard', asConsole(owner.cookie));
      assertProblem(response, 403, 'forbidden');
      assert.match(response.json.detail, /whole service/);
    });

    test('an ended session: 401', async () => {
      const expired = signedToken(admin.keyId, server.adminKey, server.clock.now());
      const response = await server.request(
        'GET',
        '/admin/api/dashboard',
        asConsole(`hop_console=${expired}`),
      );
      assertProblem(response, 401, 'unauthorized');
    });

    test('the admin cookie: 200 with links, clicks, busiest and redirects', async () => {
      const response = await server.request('GET', '/admin/api/dashboard', asConsole(admin.cookie));
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = response.json;
      assert.deepEqual(Object.keys(body).sort(), [
        'busiest',
        'busiest_ranked_at',
        'clicks',
        'links',
        'redirects',
      ]);
      // Every state, counted in the store (ADR 0100; test/http/link-counts.test.ts).
      assert.deepEqual(Object.keys(body.links).sort(), [
        'active',
        'all',
        'counted_at',
        'deleted',
        'disabled',
        'expired',
        'total',
      ]);
      assert.deepEqual(Object.keys(body.clicks).sort(), ['freshness', 'today', 'week']);
      assert.equal(body.clicks.today, 0);
      assert.equal(body.clicks.week, 0);
      assert.equal(body.clicks.freshness, null);
      assert.deepEqual(body.busiest, []);
      assert.equal(body.busiest_ranked_at, null, 'nothing folded yet, so nothing ranked');
      assert.deepEqual(Object.keys(body.redirects).sort(), [
        'p99_ms',
        'per_second',
        'window_seconds',
      ]);
      assert.equal(typeof body.redirects.per_second, 'number');
      assert.equal(typeof body.redirects.window_seconds, 'number');
    });

    test('after some redirects, a redirect rate above 0 and a p99 in ms', async () => {
      const link = await createLink('https://example.com/dashboard-traffic');
      for (let i = 0; i < 20; i++) {
        const redirect = await server.request('GET', `/${link.code}`, { key: null });
        assert.equal(redirect.status, 302);
      }
      const response = await server.request('GET', '/admin/api/dashboard', asConsole(admin.cookie));
      assert.equal(response.status, 200, response.text);
      const { per_second: perSecond, p99_ms: p99Ms } = response.json.redirects;
      assert.ok(perSecond > 0, `per_second ${perSecond}`);
      assert.equal(typeof p99Ms, 'number');
      assert.ok(p99Ms > 0, `p99_ms ${p99Ms}`);
    });
  });

  describe('the page and its assets', () => {
    test('GET /admin: the HTML page with a strict CSP, never framed', async () => {
      const response = await server.request('GET', '/admin', { key: null });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /default-src 'none'/);
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      assert.match(response.text, /^<!doctype html>/i);
      assert.match(response.text, /\/admin\/assets\/app\.js/);
    });

    test('GET /admin/assets/app.js: JavaScript with an ETag; If-None-Match answers 304', async () => {
      const response = await server.request('GET', '/admin/assets/app.js', { key: null });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      const etag = response.headers.get('etag') ?? '';
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      assert.ok(response.text.length > 0);

      const again = await server.request('GET', '/admin/assets/app.js', {
        key: null,
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag, 'a 304 names the ETag it confirms');
      const stale = await server.request('GET', '/admin/assets/app.js', {
        key: null,
        headers: { 'if-none-match': '"not-the-etag"' },
      });
      assert.equal(stale.status, 200);
    });

    for (const path of [
      '/admin/assets/nope.js',
      '/admin/assets/..%2Fhop.db',
      '/admin/assets/APP.JS',
      '/admin/assets/index.html',
      '/admin/assets/app.js%00',
    ]) {
      test(`GET ${path}: 404 problem`, async () => {
        const response = await server.request('GET', path, { key: null });
        assertProblem(response, 404, 'not-found');
        assert.match(response.json.detail, /no such console asset/);
      });
    }
  });
});

describe('admin console behind an https public URL', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_PUBLIC_URL: 'https://hop.test' });
  });
  after(async () => {
    await server.close();
  });

  test('the session cookie is Secure, and so is its clearing', async () => {
    const signedIn = await postSignIn(server, { body: { key: server.adminKey } });
    assert.equal(signedIn.status, 200, signedIn.text);
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    assert.match(setCookie, new RegExp(`; ${COOKIE_ATTRIBUTES}; Secure$`));

    const cookie = setCookie.split(';')[0] ?? '';
    const signedOut = await server.request(
      'DELETE',
      '/admin/session',
      asConsole(cookie, { 'x-csrf-token': signedIn.json.csrf_token }),
    );
    assert.equal(signedOut.status, 204, signedOut.text);
    assert.equal(signedOut.headers.get('set-cookie'), `${CLEARED_COOKIE}; Secure`);
  });
});
