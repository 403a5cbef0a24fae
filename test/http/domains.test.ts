import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { requestOnHost } from '../support/request-on-host.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

/** A host no other test uses: `<label>-<random>.example.com`. */
function makeHost(label = 'go'): string {
  return `${label}-${randomBytes(4).toString('hex')}.example.com`;
}

/** The problem's field names, in order. */
function fieldsOf(response: TestResponse): string[] {
  return ((response.json?.errors ?? []) as { field: string }[]).map((error) => error.field);
}

describe('domains API (issue 22)', () => {
  let server: TestServer;
  let ownerKey: string;
  before(async () => {
    server = await startTestServer();
    ownerKey = await server.ownerKey('domain-reader');
  });
  after(async () => {
    await server.close();
  });

  /** Creates a domain as the admin and removes it after the test (if it is still there). */
  const create = async (
    t: { after: (fn: () => Promise<unknown>) => void },
    body: Record<string, unknown>,
  ): Promise<TestResponse> => {
    const response = await server.request('POST', '/v1/domains', { body });
    if (response.status === 201) {
      t.after(() => server.request('DELETE', `/v1/domains/${String(response.json.host)}`));
    }
    return response;
  };

  describe('happy', () => {
    test('create: the host normalised, redirects checked and kept, https by default', async (t) => {
      const host = makeHost();
      const created = await create(t, {
        host: `${host.toUpperCase()}.`,
        root_redirect: 'https://Acme.example.org',
        not_found_redirect: null,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('location'), `/v1/domains/${host}`);
      assert.deepEqual(created.json, {
        host,
        default: false,
        root_redirect: 'https://acme.example.org/',
        not_found_redirect: null,
        https: true,
        created_at: '2026-06-01T12:00:00.000Z',
        updated_at: '2026-06-01T12:00:00.000Z',
      });
      const plain = await create(t, { host: makeHost(), https: false });
      assert.equal(plain.status, 201, plain.text);
      assert.equal(plain.json.https, false);
      assert.equal(plain.json.root_redirect, null);
    });

    test('list: the default domain (of HOP_PUBLIC_URL) first, then the others by host', async (t) => {
      const [early, late] = [makeHost('aaa'), makeHost('zzz')];
      // Created out of order: the order is the hosts'.
      assert.equal((await create(t, { host: late })).status, 201);
      assert.equal((await create(t, { host: early })).status, 201);
      const listed = await server.request('GET', '/v1/domains');
      assert.equal(listed.status, 200);
      const domains = listed.json.domains as { host: string; default: boolean }[];
      const { created_at: createdAt, updated_at: updatedAt, ...fallback } = listed.json.domains[0];
      assert.deepEqual(fallback, {
        host: 'hop.test',
        default: true,
        root_redirect: null,
        not_found_redirect: null,
        https: false,
      });
      assert.equal(createdAt, updatedAt);
      assert.equal(domains.filter((domain) => domain.default).length, 1);
      const hosts = domains.map((domain) => domain.host);
      assert.ok(hosts.indexOf(early) > 0 && hosts.indexOf(early) < hosts.indexOf(late));
      const others = hosts.slice(1);
      assert.deepEqual(others, [...others].sort());
      // A key with links:read lists them too.
      const asOwner = await server.request('GET', '/v1/domains', { key: ownerKey });
      assert.equal(asOwner.status, 200);
      assert.deepEqual(asOwner.json, listed.json);
    });

    test('get: by host in any case; the host of HOP_PUBLIC_URL is the default', async (t) => {
      const host = makeHost();
      await create(t, { host, not_found_redirect: 'https://acme.example.org/missing' });
      const got = await server.request('GET', `/v1/domains/${host.toUpperCase()}`, {
        key: ownerKey,
      });
      assert.equal(got.status, 200);
      assert.equal(got.json.host, host);
      assert.equal(got.json.not_found_redirect, 'https://acme.example.org/missing');
      const fallback = await server.request('GET', '/v1/domains/hop.test');
      assert.equal(fallback.status, 200);
      assert.equal(fallback.json.default, true);
    });

    test('patch: each field alone; null removes a redirect; updated_at moves', async (t) => {
      const host = makeHost();
      await create(t, { host, root_redirect: 'https://acme.example.org/' });
      server.clock.advance(60_000);
      const patched = await server.request('PATCH', `/v1/domains/${host}`, {
        body: { not_found_redirect: 'https://acme.example.org/404', https: false },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.root_redirect, 'https://acme.example.org/', 'kept');
      assert.equal(patched.json.not_found_redirect, 'https://acme.example.org/404');
      assert.equal(patched.json.https, false);
      assert.equal(patched.json.created_at, '2026-06-01T12:00:00.000Z');
      assert.notEqual(patched.json.updated_at, patched.json.created_at);
      const removed = await server.request('PATCH', `/v1/domains/${host}`, {
        body: { root_redirect: null },
      });
      assert.equal(removed.json.root_redirect, null);
      assert.equal(removed.json.not_found_redirect, 'https://acme.example.org/404');
      assert.deepEqual((await server.request('GET', `/v1/domains/${host}`)).json, removed.json);
    });

    test("patch the default domain's redirects; its scheme stays HOP_PUBLIC_URL's", async (t) => {
      t.after(() =>
        server.request('PATCH', '/v1/domains/hop.test', {
          body: { root_redirect: null, not_found_redirect: null },
        }),
      );
      const patched = await server.request('PATCH', '/v1/domains/hop.test', {
        body: {
          root_redirect: 'https://acme.example.org/',
          not_found_redirect: 'https://acme.example.org/gone',
          https: false,
        },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.default, true);
      assert.equal(patched.json.root_redirect, 'https://acme.example.org/');
      assert.equal(patched.json.not_found_redirect, 'https://acme.example.org/gone');
      const listed = await server.request('GET', '/v1/domains');
      assert.deepEqual(listed.json.domains[0], patched.json);
      const scheme = await server.request('PATCH', '/v1/domains/hop.test', {
        body: { https: true },
      });
      assertProblem(scheme, 422, 'invalid-request');
      assert.deepEqual(fieldsOf(scheme), ['https']);
    });

    test('delete: 204, then it is gone', async (t) => {
      const host = makeHost();
      await create(t, { host });
      assert.equal((await server.request('DELETE', `/v1/domains/${host}`)).status, 204);
      assertProblem(await server.request('GET', `/v1/domains/${host}`), 404, 'not-found');
      assertProblem(await server.request('DELETE', `/v1/domains/${host}`), 404, 'not-found');
      const hosts = (await server.request('GET', '/v1/domains')).json.domains.map(
        (domain: { host: string }) => domain.host,
      );
      assert.ok(!hosts.includes(host));
      // Gone means gone: the host can be added again.
      assert.equal((await create(t, { host })).status, 201);
    });
    test('/openapi.json documents the five operations and the domain JSON', async () => {
      const spec = (await server.request('GET', '/openapi.json', { key: null })).json;
      const collection = spec.paths['/v1/domains'];
      const one = spec.paths['/v1/domains/{host}'];
      assert.deepEqual(Object.keys(collection).sort(), ['get', 'post']);
      assert.deepEqual(Object.keys(one).sort(), ['delete', 'get', 'patch']);
      const shown = one.get.responses['200'].content['application/json'].schema;
      assert.deepEqual(Object.keys(shown.properties).sort(), [
        'created_at',
        'default',
        'host',
        'https',
        'not_found_redirect',
        'root_redirect',
        'updated_at',
      ]);
      assert.deepEqual(Object.keys(one.delete.responses).sort(), [
        '204',
        '401',
        '403',
        '404',
        '409',
      ]);
    });
  });

  describe('errors', () => {
    test('422 naming host: a port, a scheme, a path, a space, an empty host, none', async () => {
      for (const host of [
        'go.acme.com:8080',
        'https://go.acme.com',
        'go.acme.com/x',
        'a b.com',
        '',
      ]) {
        const response = await server.request('POST', '/v1/domains', { body: { host } });
        assertProblem(response, 422, 'invalid-request');
        assert.deepEqual(fieldsOf(response), ['host'], host);
      }
      const missing = await server.request('POST', '/v1/domains', { body: {} });
      assertProblem(missing, 422, 'invalid-request');
      assert.deepEqual(fieldsOf(missing), ['host']);
    });

    test('422 naming root_redirect and not_found_redirect: the destination rules apply', async () => {
      const host = makeHost();
      for (const bad of [
        'javascript:alert(1)',
        'http://localhost/',
        'http://10.0.0.1/',
        'https://hop.test/x', // this service: a loop
        `https://${host}/`, // the domain itself: a loop
        'not a url',
      ]) {
        for (const field of ['root_redirect', 'not_found_redirect']) {
          const response = await server.request('POST', '/v1/domains', {
            body: { host, [field]: bad },
          });
          assertProblem(response, 422, 'invalid-request');
          assert.deepEqual(fieldsOf(response), [field], `${field}: ${bad}`);
        }
      }
      assertProblem(await server.request('GET', `/v1/domains/${host}`), 404, 'not-found');
    });

    test('422: every bad field at once; wrong types and unknown fields by the schema', async () => {
      const all = await server.request('POST', '/v1/domains', {
        body: { host: 'bad host', root_redirect: 'ftp://x.example.com/', not_found_redirect: 'x' },
      });
      assertProblem(all, 422, 'invalid-request');
      assert.deepEqual(fieldsOf(all), ['host', 'root_redirect', 'not_found_redirect']);
      for (const [body, field] of [
        [{ host: makeHost(), https: 'yes' }, 'https'],
        [{ host: 42 }, 'host'],
        [{ host: makeHost(), root_redirect: 7 }, 'root_redirect'],
        [{ host: makeHost(), owner: 'x' }, 'owner'],
      ] as const) {
        const response = await server.request('POST', '/v1/domains', { body });
        assertProblem(response, 422, 'invalid-request');
        assert.deepEqual(fieldsOf(response), [field]);
      }
    });

    test('422 on PATCH: an empty body, a host (never changes), a bad redirect, a bad type', async (t) => {
      const host = makeHost();
      await create(t, { host });
      for (const [body, field] of [
        [{}, 'body'],
        [{ host: makeHost() }, 'host'],
        [{ root_redirect: 'http://127.0.0.1/' }, 'root_redirect'],
        [{ not_found_redirect: `http://${host}/x` }, 'not_found_redirect'],
        [{ https: null }, 'https'],
      ] as const) {
        const response = await server.request('PATCH', `/v1/domains/${host}`, { body });
        assertProblem(response, 422, 'invalid-request');
        assert.deepEqual(fieldsOf(response), [field], JSON.stringify(body));
      }
      const unchanged = await server.request('GET', `/v1/domains/${host}`);
      assert.equal(unchanged.json.root_redirect, null);
      assert.equal(unchanged.json.updated_at, unchanged.json.created_at);
    });

    test('409 domain-exists: the same host in any spelling, and the default domain', async (t) => {
      const host = makeHost();
      assert.equal((await create(t, { host })).status, 201);
      for (const again of [host, host.toUpperCase(), `${host}.`]) {
        const response = await server.request('POST', '/v1/domains', { body: { host: again } });
        assertProblem(response, 409, 'domain-exists');
      }
      const fallback = await server.request('POST', '/v1/domains', { body: { host: 'HOP.test' } });
      assertProblem(fallback, 409, 'domain-exists');
    });

    test('409 domain-in-use: the default domain is never deleted', async () => {
      const response = await server.request('DELETE', '/v1/domains/hop.test');
      assertProblem(response, 409, 'domain-in-use');
      assert.equal((await server.request('GET', '/v1/domains/hop.test')).status, 200);
    });

    test('409 domain-in-use while a link is on it, deleted links included', async (t) => {
      const host = makeHost();
      await create(t, { host });
      const link = await server.request('POST', '/v1/links', {
        body: { destination: 'https://example.com/held', domain: host },
      });
      assert.equal(link.status, 201, link.text);
      assertProblem(await server.request('DELETE', `/v1/domains/${host}`), 409, 'domain-in-use');
      assert.equal((await server.request('DELETE', `/v1/links/${link.json.id}`)).status, 204);
      // A deleted link's short URL may still be printed somewhere: it holds the domain.
      const held = await server.request('DELETE', `/v1/domains/${host}`);
      assertProblem(held, 409, 'domain-in-use');
      assert.match(held.json.detail, /deleted ones too/);
      assert.equal((await server.request('GET', `/v1/domains/${host}`)).status, 200);
    });

    test('404: an unknown host, and a path that is no host, for GET, PATCH and DELETE', async () => {
      for (const host of [makeHost(), 'not..a..host', 'x'.repeat(300)]) {
        assertProblem(await server.request('GET', `/v1/domains/${host}`), 404, 'not-found');
        const patch = await server.request('PATCH', `/v1/domains/${host}`, {
          body: { https: true },
        });
        assertProblem(patch, 404, 'not-found');
        assertProblem(await server.request('DELETE', `/v1/domains/${host}`), 404, 'not-found');
      }
    });
  });

  describe('redirects by Host, as the API leaves them', () => {
    const on = (host: string, path: string) => requestOnHost(server.url, 'GET', path, host);

    test('the same alias on two domains made through the API: two destinations by Host', async (t) => {
      const [first, second] = [makeHost('one'), makeHost('two')];
      await create(t, { host: first });
      await create(t, { host: second, https: false });
      const alias = `spring-${randomBytes(3).toString('hex')}`;
      for (const [domain, destination] of [
        [first, 'https://one.example.org/spring'],
        [second, 'https://two.example.org/spring'],
      ] as const) {
        const made = await server.request('POST', '/v1/links', {
          body: { destination, alias, domain },
        });
        assert.equal(made.status, 201, made.text);
        assert.equal(made.json.domain, domain);
        const scheme = domain === first ? 'https' : 'http';
        assert.equal(made.json.short_url, `${scheme}://${domain}/${alias}`);
      }
      // No reload awaited by the test: the API's answer comes after the routes know.
      assert.equal((await on(first, `/${alias}`)).location, 'https://one.example.org/spring');
      assert.equal((await on(second, `/${alias}`)).location, 'https://two.example.org/spring');
      assert.equal((await on('hop.test', `/${alias}`)).status, 404);
    });

    test('root_redirect and not_found_redirect answer 302 there; PATCH and DELETE route at once', async (t) => {
      const host = makeHost();
      await create(t, {
        host,
        root_redirect: 'https://acme.example.org/',
        not_found_redirect: 'https://acme.example.org/missing',
      });
      const root = await on(host, '/');
      assert.equal(root.status, 302);
      assert.equal(root.location, 'https://acme.example.org/');
      const miss = await on(host, '/never-made');
      assert.equal(miss.status, 302);
      assert.equal(miss.location, 'https://acme.example.org/missing');

      await server.request('PATCH', `/v1/domains/${host}`, {
        body: { root_redirect: null, not_found_redirect: 'https://acme.example.org/other' },
      });
      assert.notEqual((await on(host, '/')).status, 302);
      assert.equal((await on(host, '/never-made')).location, 'https://acme.example.org/other');

      assert.equal((await server.request('DELETE', `/v1/domains/${host}`)).status, 204);
      // No longer a domain of ours: the default domain's answers.
      assert.equal((await on(host, '/never-made')).status, 404);
    });

    test("the default domain's redirects, set through the API, answer on its host", async (t) => {
      t.after(() =>
        server.request('PATCH', '/v1/domains/hop.test', {
          body: { root_redirect: null, not_found_redirect: null },
        }),
      );
      const patched = await server.request('PATCH', '/v1/domains/hop.test', {
        body: {
          root_redirect: 'https://acme.example.org/home',
          not_found_redirect: 'https://acme.example.org/lost',
        },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await on('hop.test', '/')).location, 'https://acme.example.org/home');
      assert.equal((await on('hop.test', '/never-made')).location, 'https://acme.example.org/lost');
      await server.request('PATCH', '/v1/domains/hop.test', { body: { not_found_redirect: null } });
      assert.equal((await on('hop.test', '/never-made')).status, 404);
    });
  });

  describe('security', () => {
    test('401 without a key, on every route', async () => {
      for (const [method, path] of [
        ['POST', '/v1/domains'],
        ['GET', '/v1/domains'],
        ['GET', '/v1/domains/hop.test'],
        ['PATCH', '/v1/domains/hop.test'],
        ['DELETE', '/v1/domains/hop.test'],
      ] as const) {
        const response = await server.request(method, path, {
          key: null,
          ...(method === 'POST' || method === 'PATCH' ? { body: { host: makeHost() } } : {}),
        });
        assertProblem(response, 401, 'unauthorized');
      }
    });

    test('403 insufficient-scope naming domains:write: an owner key may read, not write', async (t) => {
      const host = makeHost();
      await create(t, { host });
      for (const [method, path, body] of [
        ['POST', '/v1/domains', { host: makeHost() }],
        ['PATCH', `/v1/domains/${host}`, { https: false }],
        ['DELETE', `/v1/domains/${host}`, undefined],
      ] as const) {
        const response = await server.request(method, path, {
          key: ownerKey,
          ...(body === undefined ? {} : { body }),
        });
        assertProblem(response, 403, 'insufficient-scope');
        assert.match(response.json.detail, /domains:write/);
      }
      assert.equal((await server.request('GET', `/v1/domains/${host}`)).json.https, true);
    });

    test('a key limited to domains sees and changes only those; others are not found; it adds none', async (t) => {
      const [mine, theirs] = [makeHost('mine'), makeHost('theirs')];
      await create(t, { host: mine });
      await create(t, { host: theirs });
      const keyFor = async (body: Record<string, unknown>): Promise<string> => {
        const issued = await server.request('POST', '/v1/keys', { body });
        assert.equal(issued.status, 201, issued.text);
        return issued.json.key as string;
      };
      const limited = await keyFor({
        owner: 'team',
        scopes: ['links:read', 'domains:write'],
        domains: [mine],
      });
      const hostsFor = async (key: string) =>
        (await server.request('GET', '/v1/domains', { key })).json.domains.map(
          (domain: { host: string }) => domain.host,
        );
      assert.deepEqual(await hostsFor(limited), [mine], 'not even the default domain');
      assert.equal(
        (await server.request('GET', `/v1/domains/${mine}`, { key: limited })).status,
        200,
      );
      for (const host of [theirs, 'hop.test']) {
        assertProblem(await server.request('GET', `/v1/domains/${host}`, { key: limited }), 404);
        const patch = await server.request('PATCH', `/v1/domains/${host}`, {
          key: limited,
          body: { not_found_redirect: 'https://acme.example.org/' },
        });
        assertProblem(patch, 404, 'not-found');
        const removal = await server.request('DELETE', `/v1/domains/${host}`, { key: limited });
        assertProblem(removal, 404, 'not-found');
      }
      const own = await server.request('PATCH', `/v1/domains/${mine}`, {
        key: limited,
        body: { not_found_redirect: 'https://acme.example.org/' },
      });
      assert.equal(own.status, 200, own.text);
      const adding = await server.request('POST', '/v1/domains', {
        key: limited,
        body: { host: makeHost() },
      });
      assertProblem(adding, 403, 'forbidden');

      const withDefault = await keyFor({ owner: 'team', domains: ['hop.test', mine] });
      assert.deepEqual(await hostsFor(withDefault), ['hop.test', mine]);
      // A key without links:read may not even list them.
      const writer = await keyFor({ owner: 'team', scopes: ['links:write'] });
      const listed = await server.request('GET', '/v1/domains', { key: writer });
      assertProblem(listed, 403, 'insufficient-scope');
      assert.match(listed.json.detail, /links:read/);
    });
  });
});
