import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LinkDomain } from '../../src/domain/link-domain.js';
import { assertProblem } from '../support/problem-assertions.js';
import { requestOnHost } from '../support/request-on-host.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';

const DEFAULT_HOST = new URL(TEST_PUBLIC_URL).host;

function domain(host: string, fields: Partial<LinkDomain> = {}): LinkDomain {
  return {
    host,
    rootRedirect: null,
    notFoundRedirect: null,
    https: true,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    ...fields,
  };
}

/** Issue 22: one server answers several short domains, each link looked up by (Host, code). */
describe('short domains: the redirect by Host', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    const { store, domainRoutes } = server.runtime;
    await store.domains.insertDomain(
      domain('go.acme.test', { rootRedirect: 'https://acme.example/' }),
    );
    await store.domains.insertDomain(
      domain('acme.link', { https: false, notFoundRedirect: 'https://acme.example/missing' }),
    );
    await domainRoutes.reload();
  });
  after(async () => {
    await server.close();
  });

  const on = (host: string, path: string, method = 'GET') =>
    requestOnHost(server.url, method, path, host);
  const create = async (body: Record<string, unknown>) => {
    const response = await server.request('POST', '/v1/links', { body });
    assert.equal(response.status, 201, response.text);
    return response.json as { id: string; code: string; short_url: string; domain: string };
  };

  test('the same alias on three domains is three links, each redirecting by Host', async () => {
    const onDefault = await create({ destination: 'https://example.com/default', alias: 'spring' });
    const onGo = await create({
      destination: 'https://example.com/go',
      alias: 'spring',
      domain: 'go.acme.test',
    });
    const onLink = await create({
      destination: 'https://example.com/link',
      alias: 'spring',
      domain: 'ACME.link',
    });
    assert.equal(onDefault.domain, DEFAULT_HOST);
    assert.equal(onDefault.short_url, `${TEST_PUBLIC_URL}/spring`);
    assert.equal(onGo.domain, 'go.acme.test');
    assert.equal(onGo.short_url, 'https://go.acme.test/spring');
    assert.equal(onLink.short_url, 'http://acme.link/spring', 'https: false gives http');

    for (const method of ['GET', 'HEAD']) {
      assert.equal(
        (await on('go.acme.test', '/spring', method)).location,
        'https://example.com/go',
      );
      assert.equal((await on('acme.link', '/spring', method)).location, 'https://example.com/link');
      assert.equal(
        (await on(DEFAULT_HOST, '/spring', method)).location,
        'https://example.com/default',
      );
    }
    // Any case, a port, a trailing dot: the same domain.
    assert.equal((await on('GO.Acme.Test:8080', '/spring')).location, 'https://example.com/go');
    assert.equal((await on('acme.link.', '/spring/')).location, 'https://example.com/link');
    // A host that is no domain of ours is the default domain.
    assert.equal((await on('unknown.example', '/spring')).location, 'https://example.com/default');

    // A second create of the alias on one domain is refused; the others are untouched.
    const again = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/again', alias: 'spring', domain: 'go.acme.test' },
    });
    assertProblem(again, 409, 'alias-taken');
  });

  test('a change to a link on one domain reaches only that link', async () => {
    const onDefault = await create({ destination: 'https://example.com/d2', alias: 'autumn' });
    const onGo = await create({
      destination: 'https://example.com/g2',
      alias: 'autumn',
      domain: 'go.acme.test',
    });
    // Both cached first, so the disable must reach L1 under the right key.
    assert.equal((await on('go.acme.test', '/autumn')).status, 302);
    assert.equal((await on(DEFAULT_HOST, '/autumn')).status, 302);
    assert.equal((await server.request('POST', `/v1/links/${onGo.id}/disable`)).status, 200);
    assert.equal((await on('go.acme.test', '/autumn')).status, 404);
    assert.equal((await on(DEFAULT_HOST, '/autumn')).location, 'https://example.com/d2');
    await server.request('PATCH', `/v1/links/${onDefault.id}`, {
      body: { destination: 'https://example.com/d3' },
    });
    assert.equal((await on(DEFAULT_HOST, '/autumn')).location, 'https://example.com/d3');
    assert.equal((await on('go.acme.test', '/autumn')).status, 404);
  });

  test('a domain root redirect answers GET /; a domain without one keeps the root page', async () => {
    const root = await on('go.acme.test', '/');
    assert.equal(root.status, 302);
    assert.equal(root.location, 'https://acme.example/');
    assert.equal(root.headers['cache-control'], 'no-store');
    assert.equal((await on('go.acme.test', '/?utm=x')).location, 'https://acme.example/');
    assert.notEqual((await on(DEFAULT_HOST, '/')).status, 302);
    assert.notEqual((await on('acme.link', '/')).status, 302);
  });

  test('a not-found redirect takes every miss on its domain alike, and only there', async () => {
    const disabled = await create({
      destination: 'https://example.com/off',
      alias: 'offline',
      domain: 'acme.link',
    });
    await server.request('POST', `/v1/links/${disabled.id}/disable`);
    const deleted = await create({
      destination: 'https://example.com/gone',
      alias: 'gone-link',
      domain: 'acme.link',
    });
    await server.request('DELETE', `/v1/links/${deleted.id}`);
    const expired = await create({
      destination: 'https://example.com/exp',
      alias: 'expiring',
      domain: 'acme.link',
      ttl_seconds: 1,
    });
    assert.ok(expired.id);
    server.clock.advance(2000);
    for (const path of ['/offline', '/gone-link', '/expiring', '/never-made', '/bad+code']) {
      const miss = await on('acme.link', path);
      assert.equal(miss.status, 302, path);
      assert.equal(miss.location, 'https://acme.example/missing', path);
      assert.equal(miss.headers['cache-control'], 'no-store');
      // The same codes elsewhere: the one 404.
      assert.equal((await on('go.acme.test', path)).status, 404, path);
    }
    // Our own routes are never misses.
    assert.equal((await on('acme.link', '/healthz')).status, 200);
  });

  test('a create on a domain that does not exist is refused at its field', async () => {
    const response = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/', domain: 'nowhere.example' },
    });
    assertProblem(response, 422, 'invalid-request');
    assert.equal(response.json.errors[0].field, 'domain');
    for (const bad of ['', 'not a host', 'x'.repeat(300)]) {
      const refused = await server.request('POST', '/v1/links', {
        body: { destination: 'https://example.com/', domain: bad },
      });
      assert.equal(refused.status, 422, bad);
    }
  });

  test('a link may not point at a short domain of ours (a loop)', async () => {
    const response = await server.request('POST', '/v1/links', {
      body: { destination: 'https://go.acme.test/spring' },
    });
    assertProblem(response, 422, 'invalid-destination');
  });

  test('lists filter by domain; a code names a link on the domain asked for', async () => {
    const onGo = await create({
      destination: 'https://example.com/listed',
      alias: 'listed',
      domain: 'go.acme.test',
    });
    const listed = await server.request('GET', '/v1/links?domain=go.acme.test&limit=100');
    assert.equal(listed.status, 200);
    const domains = new Set(listed.json.items.map((item: { domain: string }) => item.domain));
    assert.deepEqual([...domains], ['go.acme.test']);
    assert.ok(listed.json.items.some((item: { id: string }) => item.id === onGo.id));
    const onDefaultOnly = await server.request('GET', `/v1/links?domain=${DEFAULT_HOST}&limit=100`);
    assert.ok(
      onDefaultOnly.json.items.every((item: { domain: string }) => item.domain === DEFAULT_HOST),
    );
    const none = await server.request('GET', '/v1/links?domain=nowhere.example');
    assert.deepEqual(none.json.items, []);

    assert.equal(
      (await server.request('GET', '/v1/links/listed?domain=go.acme.test')).json.id,
      onGo.id,
    );
    assertProblem(await server.request('GET', '/v1/links/listed'), 404, 'not-found');
    const analytics = await server.request('GET', '/v1/links/listed/analytics?domain=go.acme.test');
    assert.equal(analytics.status, 200, analytics.text);
    assertProblem(await server.request('GET', '/v1/links/listed/analytics'), 404, 'not-found');
  });
});
