import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashApiKey, keyPrefix } from '../../src/services/keys/hash-api-key.js';
import { makeKey } from '../contract/store-factories.js';
import { assertProblem } from '../support/problem-assertions.js';
import {
  startTestServer,
  type RequestOptions,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';

/** The 403 of a key lacking `scope`, which the problem names. */
function assertLacks(response: TestResponse, scope: string): void {
  assertProblem(response, 403, 'insufficient-scope');
  assert.match(response.json.detail, new RegExp(`"${scope}"`));
  assert.deepEqual(response.json.errors, [{ field: 'scope', detail: scope }]);
}

/** A 422 naming exactly these fields. */
function assertFields(response: TestResponse, fields: string[]): void {
  assertProblem(response, 422, 'invalid-request');
  assert.deepEqual(
    response.json.errors.map((error: { field: string }) => error.field),
    fields,
    response.text,
  );
}

describe('keys that can do only their job (issue 22)', () => {
  let server: TestServer;
  /** A link of the admin key's owner. */
  let link: { id: string; code: string };
  before(async () => {
    server = await startTestServer();
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/scoped' },
    });
    assert.equal(created.status, 201, created.text);
    link = created.json;
  });
  after(async () => {
    await server.close();
  });

  /** Issues a key through the API as `as` (default: the admin key); returns its JSON. */
  async function issue(body: Record<string, unknown>, as?: string): Promise<TestResponse> {
    const options: RequestOptions = as === undefined ? { body } : { body, key: as };
    return server.request('POST', '/v1/keys', options);
  }

  async function keyOf(body: Record<string, unknown>): Promise<string> {
    const issued = await issue(body);
    assert.equal(issued.status, 201, issued.text);
    return issued.json.key as string;
  }

  async function ownLink(key: string): Promise<string> {
    const created = await server.request('POST', '/v1/links', {
      key,
      body: { destination: 'https://example.com/own' },
    });
    assert.equal(created.status, 201, created.text);
    return created.json.id as string;
  }

  test('a links:read key reads, and is refused every write, analytics and keys', async () => {
    const writer = await keyOf({ owner: 'reader' });
    const id = await ownLink(writer);
    const key = await keyOf({ owner: 'reader', scopes: ['links:read'], name: 'dashboards' });
    const as = (body?: unknown): RequestOptions => (body === undefined ? { key } : { key, body });

    assert.equal((await server.request('GET', '/v1/links', as())).status, 200);
    assert.equal((await server.request('GET', `/v1/links/${id}`, as())).status, 200);
    assert.equal((await server.request('GET', `/v1/links/${id}/qr`, as())).status, 200);
    assertLacks(
      await server.request('POST', '/v1/links', as({ destination: 'https://example.com/' })),
      'links:write',
    );
    // The scope is checked before the body: a refused key learns nothing of validation.
    assertLacks(await server.request('POST', '/v1/links', as({ nonsense: true })), 'links:write');
    assertLacks(
      await server.request('PATCH', `/v1/links/${id}`, as({ title: 'x' })),
      'links:write',
    );
    assertLacks(await server.request('POST', `/v1/links/${id}/disable`, as()), 'links:write');
    assertLacks(await server.request('POST', `/v1/links/${id}/enable`, as()), 'links:write');
    assertLacks(await server.request('DELETE', `/v1/links/${id}`, as()), 'links:write');
    assertLacks(await server.request('GET', `/v1/links/${id}/analytics`, as()), 'analytics:read');
    assertLacks(await server.request('GET', '/v1/stats', as()), 'analytics:read');
    assertLacks(await server.request('GET', '/v1/keys', as()), 'keys:write');
    assertLacks(await server.request('POST', '/v1/keys', as({ owner: 'reader' })), 'keys:write');
    assertLacks(await server.request('DELETE', '/v1/keys/nope', as()), 'keys:write');
    // The link is untouched by all of it.
    const after = await server.request('GET', `/v1/links/${id}`, as());
    assert.equal(after.json.state, 'active');
  });

  test('a links:write key writes but cannot read; an analytics:read key only reads analytics', async () => {
    const writer = await keyOf({ owner: 'split', scopes: ['links:write'] });
    const id = await ownLink(writer);
    assertLacks(await server.request('GET', '/v1/links', { key: writer }), 'links:read');
    assertLacks(await server.request('GET', `/v1/links/${id}`, { key: writer }), 'links:read');
    assertLacks(await server.request('GET', `/v1/links/${id}/qr`, { key: writer }), 'links:read');
    // Fastify's HEAD twin of a GET route carries the same scope.
    assert.equal((await server.request('HEAD', `/v1/links/${id}`, { key: writer })).status, 403);
    assert.equal(
      (await server.request('POST', `/v1/links/${id}/disable`, { key: writer })).status,
      200,
    );

    const analyst = await keyOf({ owner: 'split', scopes: ['analytics:read'] });
    const analytics = await server.request('GET', `/v1/links/${id}/analytics`, { key: analyst });
    assert.equal(analytics.status, 200, analytics.text);
    assertLacks(await server.request('GET', '/v1/links', { key: analyst }), 'links:read');
    // Statistics stay the admin's: the scope alone is not enough.
    assertProblem(await server.request('GET', '/v1/stats', { key: analyst }), 403, 'forbidden');
    // Another owner's link is still not found, whatever the scope.
    const other = await server.request('GET', `/v1/links/${link.id}/analytics`, { key: analyst });
    assertProblem(other, 404, 'not-found');
  });

  test("the console's dashboard needs analytics:read; a session holds its key's scopes", async () => {
    const key = await keyOf({ owner: 'console-reader', scopes: ['links:read'] });
    const signIn = await server.request('POST', '/admin/session', { key: null, body: { key } });
    assert.equal(signIn.status, 200, signIn.text);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const asConsole = { key: null, headers: { cookie } };
    assertLacks(await server.request('GET', '/admin/api/dashboard', asConsole), 'analytics:read');
    assert.equal((await server.request('GET', '/v1/links', asConsole)).status, 200);
    assertLacks(
      await server.request('POST', '/v1/links', {
        ...asConsole,
        headers: { cookie, 'x-csrf-token': signIn.json.csrf_token },
        body: { destination: 'https://example.com/' },
      }),
      'links:write',
    );
  });

  test('keys made before scopes keep links and analytics, read and write, and nothing more', async () => {
    const secret = `hop_${randomBytes(16).toString('hex')}`;
    const id = `01OLDKEY${randomBytes(6).toString('hex').toUpperCase()}`;
    // As migration 0014 leaves a key made before it: every new column NULL (makeKey's).
    await server.runtime.store.keys.insertKey(
      makeKey({
        id,
        owner: 'old-timer',
        keyHash: hashApiKey(secret),
        prefix: keyPrefix(secret),
        createdAt: server.clock.now(),
      }),
    );
    const linkId = await ownLink(secret);
    for (const [method, path] of [
      ['GET', '/v1/links'],
      ['GET', `/v1/links/${linkId}`],
      ['GET', `/v1/links/${linkId}/analytics`],
      ['POST', `/v1/links/${linkId}/disable`],
      ['DELETE', `/v1/links/${linkId}`],
    ] as const) {
      const response = await server.request(method, path, { key: secret });
      assert.ok(response.status < 300, `${method} ${path}: ${response.text}`);
    }
    assertProblem(await server.request('GET', '/v1/keys', { key: secret }), 403);
    assertProblem(await server.request('GET', '/v1/stats', { key: secret }), 403);

    const listed = await server.request('GET', '/v1/keys');
    const entry = listed.json.keys.find((key: { id: string }) => key.id === id);
    assert.deepEqual(
      { ...entry, last_used_at: null },
      {
        id,
        owner: 'old-timer',
        admin: false,
        name: null,
        prefix: keyPrefix(secret),
        scopes: ['links:read', 'links:write', 'analytics:read', 'webhooks:write'],
        domains: null,
        expires_at: null,
        last_used_at: null,
        created_at: new Date(server.clock.now()).toISOString(),
        revoked_at: null,
      },
    );
    // A key issued without scopes, as before this issue, holds the same.
    const plain = await issue({ owner: 'plain' });
    assert.deepEqual(plain.json.scopes, [
      'links:read',
      'links:write',
      'analytics:read',
      'webhooks:write',
    ]);
    assert.equal(plain.json.domains, null);
    const admin = await issue({ owner: 'ops', admin: true });
    assert.deepEqual(admin.json.scopes, [
      'links:read',
      'links:write',
      'analytics:read',
      'domains:write',
      'keys:write',
      'webhooks:write',
    ]);
  });

  test('an expired key is 401 for the API and the console; its sessions end with it', async () => {
    const expiresAt = new Date(server.clock.now() + 3_600_000).toISOString();
    const issued = await issue({ owner: 'temp', expires_at: expiresAt });
    assert.equal(issued.status, 201, issued.text);
    assert.equal(issued.json.expires_at, expiresAt);
    const key = issued.json.key as string;
    assert.equal((await server.request('GET', '/v1/links', { key })).status, 200);
    const signIn = await server.request('POST', '/admin/session', { key: null, body: { key } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    server.clock.advance(3_600_000);
    const refused = await server.request('GET', '/v1/links', { key });
    assertProblem(refused, 401, 'unauthorized');
    assert.match(refused.json.detail, /expired/);
    const again = await server.request('POST', '/admin/session', { key: null, body: { key } });
    assertProblem(again, 401, 'unauthorized');
    assertProblem(
      await server.request('GET', '/admin/session', { key: null, headers: { cookie } }),
      401,
    );
    assertProblem(
      await server.request('GET', '/v1/links', { key: null, headers: { cookie } }),
      401,
    );
  });

  test('last_used_at is written on use, then at most once a minute', async () => {
    const issued = await issue({ owner: 'busy' });
    const key = issued.json.key as string;
    assert.equal(issued.json.last_used_at, null);
    const lastUsed = async () => {
      await server.runtime.keyService.uses.settled();
      const stored = await server.runtime.store.keys.findActiveKeyById(issued.json.id);
      return stored?.lastUsedAt;
    };
    const first = server.clock.now();
    await server.request('GET', '/v1/links', { key });
    assert.equal(await lastUsed(), first);
    server.clock.advance(30_000);
    await Promise.all([1, 2, 3].map(() => server.request('GET', '/v1/links', { key })));
    assert.equal(await lastUsed(), first, 'within the minute: no write');
    server.clock.advance(31_000);
    await server.request('GET', '/v1/links', { key });
    assert.equal(await lastUsed(), server.clock.now());
    assert.equal(server.runtime.keyService.uses.failures, 0);
    const metrics = await server.request('GET', '/metrics', { key: null });
    assert.match(metrics.text, /^hop_key_use_write_failures_total 0$/m);
    const listed = await server.request('GET', '/v1/keys');
    const entry = listed.json.keys.find((k: { id: string }) => k.id === issued.json.id);
    assert.equal(entry.last_used_at, new Date(server.clock.now()).toISOString());
  });

  test('a keys:write key issues only within its owner, scopes and domains', async () => {
    const issuer = await keyOf({
      owner: 'team-k',
      scopes: ['keys:write', 'links:read'],
      domains: ['hop.test'],
    });
    const as = (body: Record<string, unknown>) => issue(body, issuer);

    assertProblem(await as({ owner: 'someone-else' }), 403, 'forbidden');
    assertProblem(await as({ owner: 'team-k', admin: true }), 403, 'forbidden');
    assertLacks(
      await as({ owner: 'team-k', scopes: ['links:read', 'links:write'] }),
      'links:write',
    );
    assertLacks(await as({ owner: 'team-k', scopes: ['domains:write'] }), 'domains:write');
    // A domain it may not use reads as one that does not exist.
    assertFields(await as({ owner: 'team-k', domains: ['hop.test', 'other.test'] }), [
      'domains[1]',
    ]);

    // Left out, scopes are the owner default within its own, and domains its own.
    const child = await as({ owner: 'team-k', name: 'child' });
    assert.equal(child.status, 201, child.text);
    assert.deepEqual(child.json.scopes, ['links:read']);
    assert.deepEqual(child.json.domains, ['hop.test']);
    assert.equal(child.json.admin, false);
    const grandchild = await as({ owner: 'team-k', scopes: ['keys:write'] });
    assert.equal(grandchild.status, 201, grandchild.text);
    assert.deepEqual(grandchild.json.domains, ['hop.test']);

    // It lists and revokes its owner's keys only.
    const listed = await server.request('GET', '/v1/keys', { key: issuer });
    assert.equal(listed.status, 200);
    const owners = new Set(listed.json.keys.map((key: { owner: string }) => key.owner));
    assert.deepEqual([...owners], ['team-k']);
    assert.equal(listed.json.keys.length, 3);
    const stranger = await issue({ owner: 'stranger' });
    assertProblem(
      await server.request('DELETE', `/v1/keys/${stranger.json.id}`, { key: issuer }),
      404,
    );
    assert.equal(
      (await server.request('DELETE', `/v1/keys/${child.json.id}`, { key: issuer })).status,
      204,
    );
    assertProblem(await server.request('GET', '/v1/links', { key: child.json.key }), 401);

    // A key holding none of the default scopes must name what it gives.
    const keysOnly = await keyOf({ owner: 'team-k', scopes: ['keys:write'] });
    assertFields(await issue({ owner: 'team-k' }, keysOnly), ['scopes']);
  });

  test('the OpenAPI document names the scope of each route', async () => {
    const paths = (await server.request('GET', '/openapi.json', { key: null })).json.paths;
    assert.match(paths['/v1/links'].get.description, /^Needs the scope `links:read`/);
    assert.match(paths['/v1/links'].post.description, /^Needs the scope `links:write`/);
    assert.match(paths['/v1/links/{id}/analytics'].get.description, /`analytics:read`/);
    assert.match(paths['/v1/keys'].post.description, /^Needs the scope `keys:write`\. Only/);
  });

  test('a key limited to a domain sees, lists, changes and creates on it alone', async () => {
    const now = server.clock.now();
    const host = 'go.scoped.test';
    await server.runtime.store.domains.insertDomain({
      host,
      rootRedirect: null,
      notFoundRedirect: null,
      https: true,
      createdAt: now,
      updatedAt: now,
    });
    const limited = await issue({ owner: 'dom', domains: [host.toUpperCase()] });
    assert.equal(limited.status, 201, limited.text);
    assert.deepEqual(limited.json.domains, [host]);
    const key = limited.json.key as string;
    const onDefaultOnly = await keyOf({ owner: 'dom', domains: ['hop.test'] });
    const everywhere = await keyOf({ owner: 'dom' });
    const onDefault = await ownLink(everywhere);
    const defaultCode = (await server.request('GET', `/v1/links/${onDefault}`)).json.code;
    const created = await server.request('POST', '/v1/links', {
      key,
      body: { destination: 'https://example.com/on-scoped', domain: host },
    });
    assert.equal(created.status, 201, created.text);
    const onScoped = created.json as { id: string; code: string };

    const seen = await server.request('GET', `/v1/links/${onScoped.id}`, { key });
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.json.domain, host);
    // Another domain's link is not found, by id or code, for reading, analytics or changes.
    for (const [method, path] of [
      ['GET', `/v1/links/${onDefault}`],
      ['GET', `/v1/links/${defaultCode}`],
      ['GET', `/v1/links/${onDefault}/qr`],
      ['GET', `/v1/links/${onDefault}/analytics`],
      ['PATCH', `/v1/links/${onDefault}`],
      ['POST', `/v1/links/${onDefault}/disable`],
      ['DELETE', `/v1/links/${onDefault}`],
    ] as const) {
      const body = method === 'PATCH' ? { title: 'not yours' } : undefined;
      const response = await server.request(
        method,
        path,
        body === undefined ? { key } : { key, body },
      );
      assertProblem(response, 404, 'not-found');
    }
    const ids = async (as: string) =>
      (await server.request('GET', '/v1/links?limit=100', { key: as })).json.items.map(
        (link: { id: string }) => link.id,
      );
    assert.deepEqual(await ids(key), [onScoped.id]);
    assert.deepEqual(await ids(onDefaultOnly), [onDefault]);
    assert.deepEqual((await ids(everywhere)).sort(), [onDefault, onScoped.id].sort());
    assertProblem(
      await server.request('GET', `/v1/links/${onScoped.id}`, { key: onDefaultOnly }),
      404,
    );
    // Creating elsewhere reads as no such domain: the default domain, named or left out.
    for (const body of [{}, { domain: 'hop.test' }]) {
      const elsewhere = await server.request('POST', '/v1/links', {
        key,
        body: { destination: 'https://example.com/elsewhere', ...body },
      });
      assertFields(elsewhere, ['domain']);
      assert.match(elsewhere.json.detail, /There is no domain/);
    }
    assertFields(
      await server.request('POST', '/v1/links', {
        key: onDefaultOnly,
        body: { destination: 'https://example.com/elsewhere', domain: host },
      }),
      ['domain'],
    );
    // A key issuing keys gives only domains it may use: one that exists reads as unknown.
    const issuer = await keyOf({ owner: 'dom', scopes: ['keys:write'], domains: ['hop.test'] });
    const beyond = await issue({ owner: 'dom', scopes: ['keys:write'], domains: [host] }, issuer);
    assertFields(beyond, ['domains[0]']);
    assert.match(beyond.json.detail, /There is no domain/);
    // A list asking for a domain outside the key's lists nothing.
    const asked = await server.request('GET', `/v1/links?domain=hop.test`, { key });
    assert.deepEqual(asked.json.items, []);
    // An admin key limited to domains has no dashboard: its busiest links are everyone's.
    const admin = await keyOf({ owner: 'dom-admin', admin: true, domains: [host] });
    const signIn = await server.request('POST', '/admin/session', {
      key: null,
      body: { key: admin },
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assertProblem(
      await server.request('GET', '/admin/api/dashboard', { key: null, headers: { cookie } }),
      403,
      'forbidden',
    );
    assert.deepEqual(
      await ids(admin),
      [onScoped.id],
      'an admin limited to domains lists them only',
    );
    // The link on the default domain is untouched.
    const after = await server.request('GET', `/v1/links/${onDefault}`, { key: everywhere });
    assert.equal(after.json.state, 'active');
    assert.equal(after.json.title, null);
  });

  test('bad key requests are 422 naming each field', async () => {
    const now = server.clock.now();
    assertFields(await issue({ owner: 'has space' }), ['owner']);
    assertFields(await issue({ owner: 'o', name: '   ' }), ['name']);
    assertFields(await issue({ owner: 'o', name: 'tab\there' }), ['name']);
    assertFields(await issue({ owner: 'o', name: 'x'.repeat(101) }), ['name']);
    assertFields(await issue({ owner: 'o', scopes: ['links:read', 'links:nope'] }), ['scopes[1]']);
    assertFields(await issue({ owner: 'o', scopes: [] }), ['scopes']);
    assertFields(await issue({ owner: 'o', admin: true, scopes: ['links:read'] }), ['scopes']);
    assertFields(await issue({ owner: 'o', domains: [] }), ['domains']);
    assertFields(await issue({ owner: 'o', domains: ['hop.test', 'not a host'] }), ['domains[1]']);
    assertFields(await issue({ owner: 'o', domains: ['unknown.example'] }), ['domains[0]']);
    assertFields(await issue({ owner: 'o', domains: ['hop.test:8080'] }), ['domains[0]']);
    assertFields(await issue({ owner: 'o', expires_at: 'tomorrow' }), ['expires_at']);
    assertFields(await issue({ owner: 'o', expires_at: new Date(now).toISOString() }), [
      'expires_at',
    ]);
    assertFields(await issue({ owner: 'o', expires_at: 7 }), ['expires_at']);
    assertFields(await issue({ owner: 'o', scopes: 'links:read' }), ['scopes']);
    // Several at once are each named.
    assertFields(await issue({ owner: 'o', name: '', expires_at: 'soon', domains: ['x y'] }), [
      'name',
      'domains[0]',
      'expires_at',
    ]);
    // The default domain is named by the public URL's host, in any case, and stored once.
    const ok = await issue({ owner: 'o', domains: ['HOP.test', 'hop.test.'] });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.json.domains, ['hop.test']);
  });
});
