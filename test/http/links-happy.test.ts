import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';
import { LINK_JSON_KEYS } from '../support/link-json-keys.js';

describe('links API: happy paths', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('create returns 201, Location and the whole link', async () => {
    const response = await server.request('POST', '/v1/links', {
      body: {
        destination: 'HTTPS://Example.COM/café?q=1#frag',
        title: '  Launch  ',
        tags: ['news', 'q3', 'news'],
      },
    });
    assert.equal(response.status, 201);
    const link = response.json;
    assert.equal(response.headers.get('location'), `/v1/links/${link.id}`);
    assert.match(link.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.match(link.code, /^[0-9a-zA-Z]{7}$/);
    assert.equal(link.short_url, `${TEST_PUBLIC_URL}/${link.code}`);
    assert.equal(link.destination, 'https://example.com/caf%C3%A9?q=1#frag');
    assert.equal(link.status_code, 302);
    assert.equal(link.state, 'active');
    assert.equal(link.custom, false);
    assert.equal(link.owner, 'admin');
    assert.equal(link.title, 'Launch');
    assert.deepEqual(link.tags, ['news', 'q3']);
    assert.equal(link.version, 1);
    assert.equal(link.created_at, new Date(server.clock.now()).toISOString());
    assert.equal(link.updated_at, link.created_at);
    // HOP_DEFAULT_TTL is 2 years.
    assert.equal(Date.parse(link.expires_at) - Date.parse(link.created_at), 2 * 365 * 86_400_000);
    assert.equal(link.clicks, 0);
    assert.equal(link.bot_clicks, 0);
    assert.deepEqual(Object.keys(link).sort(), LINK_JSON_KEYS);
  });

  test('create with alias, status code and ttl_seconds; then get it back', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: {
        destination: 'https://example.org/',
        alias: 'My_Alias-1',
        status_code: 308,
        ttl_seconds: 3600,
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.code, 'My_Alias-1');
    assert.equal(created.json.custom, true);
    assert.equal(created.json.status_code, 308);
    assert.equal(Date.parse(created.json.expires_at), server.clock.now() + 3_600_000);
    const fetched = await server.request('GET', `/v1/links/${created.json.id}`);
    assert.equal(fetched.status, 200);
    assert.deepEqual(fetched.json, created.json);
  });

  test('create with expires_at keeps that instant', async () => {
    const at = new Date(server.clock.now() + 86_400_000).toISOString();
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.org/x', expires_at: at },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.expires_at, at);
  });

  test('PATCH changes fields, bumps the version and the redirect follows at once', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/old' },
    });
    const id = created.json.id as string;
    const code = created.json.code as string;
    assert.equal(
      (await server.request('GET', `/${code}`)).headers.get('location'),
      'https://example.com/old',
    );

    server.clock.advance(1000);
    const later = new Date(server.clock.now() + 7 * 86_400_000).toISOString();
    const patched = await server.request('PATCH', `/v1/links/${id}`, {
      body: {
        destination: 'https://example.com/new',
        status_code: 301,
        expires_at: later,
        title: 'New',
        tags: ['x'],
      },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.json.version, 2);
    assert.equal(patched.json.destination, 'https://example.com/new');
    assert.equal(patched.json.status_code, 301);
    assert.equal(patched.json.expires_at, later);
    assert.equal(patched.json.title, 'New');
    assert.deepEqual(patched.json.tags, ['x']);
    assert.equal(patched.json.created_at, created.json.created_at);
    assert.notEqual(patched.json.updated_at, created.json.updated_at);
    assert.equal(patched.json.code, code);

    const redirect = await server.request('GET', `/${code}`);
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), 'https://example.com/new');

    const cleared = await server.request('PATCH', `/v1/links/${id}`, { body: { title: null } });
    assert.equal(cleared.json.title, null);
    assert.equal(cleared.json.version, 3);
  });

  test('disable and enable are idempotent and take effect on the next redirect', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/toggle' },
    });
    const { id, code } = created.json as { id: string; code: string };

    const disabled = await server.request('POST', `/v1/links/${id}/disable`);
    assert.equal(disabled.status, 200);
    assert.equal(disabled.json.state, 'disabled');
    assert.equal(disabled.json.version, 2);
    assert.equal((await server.request('GET', `/${code}`)).status, 404);

    const again = await server.request('POST', `/v1/links/${id}/disable`);
    assert.equal(again.status, 200);
    assert.equal(again.json.version, 2, 'a second disable changes nothing');

    const enabled = await server.request('POST', `/v1/links/${id}/enable`);
    assert.equal(enabled.json.state, 'active');
    assert.equal(enabled.json.version, 3);
    assert.equal((await server.request('GET', `/${code}`)).status, 302);
    const enabledAgain = await server.request('POST', `/v1/links/${id}/enable`, {
      headers: { 'content-type': 'application/json' },
      rawBody: '',
    });
    assert.equal(enabledAgain.status, 200);
    assert.equal(enabledAgain.json.version, 3);
  });

  test('delete leaves a tombstone: 204, then 404 everywhere, and the alias stays taken', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/gone', alias: 'gone-for-good' },
    });
    const id = created.json.id as string;
    const deleted = await server.request('DELETE', `/v1/links/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await server.request('GET', `/v1/links/${id}`)).status, 404);
    assert.equal((await server.request('DELETE', `/v1/links/${id}`)).status, 404);
    assert.equal((await server.request('GET', '/gone-for-good')).status, 404);
    const reuse = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/other', alias: 'gone-for-good' },
    });
    assert.equal(reuse.status, 409);
    const tombstones = await server.request('GET', '/v1/links?state=deleted');
    assert.ok(tombstones.json.items.some((link: { id: string }) => link.id === id));
  });
});

describe('links API: listing', () => {
  let server: TestServer;
  let ownerKey: string;
  before(async () => {
    server = await startTestServer();
    ownerKey = await server.ownerKey('lister');
    for (let i = 0; i < 25; i++) {
      const response = await server.request('POST', '/v1/links', {
        key: ownerKey,
        body: {
          destination: `https://list.example/${i}`,
          title: i % 5 === 0 ? `Special ${i}` : `plain ${i}`,
          tags: i % 2 === 0 ? ['even'] : ['odd'],
        },
      });
      assert.equal(response.status, 201);
      server.clock.advance(1);
    }
  });
  after(async () => {
    await server.close();
  });

  test('newest first with cursor pagination that sees every link once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await server.request('GET', `/v1/links?limit=10${query}`, { key: ownerKey });
      assert.equal(page.status, 200);
      seen.push(...page.json.items.map((l: { destination: string }) => l.destination));
      cursor = page.json.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      Array.from({ length: 25 }, (_, i) => `https://list.example/${24 - i}`),
    );
  });

  test('q searches code, destination and title, case-insensitively', async () => {
    const byTitle = await server.request('GET', '/v1/links?q=SPECIAL', { key: ownerKey });
    assert.equal(byTitle.json.items.length, 5);
    const byDestination = await server.request('GET', '/v1/links?q=example/13', { key: ownerKey });
    assert.deepEqual(
      byDestination.json.items.map((l: { destination: string }) => l.destination),
      ['https://list.example/13'],
    );
    const code = byDestination.json.items[0].code as string;
    const byCode = await server.request('GET', `/v1/links?q=${code}`, { key: ownerKey });
    assert.ok(byCode.json.items.some((l: { code: string }) => l.code === code));
  });

  test('tag and state filters', async () => {
    const even = await server.request('GET', '/v1/links?tag=even&limit=100', { key: ownerKey });
    assert.equal(even.json.items.length, 13);
    const first = even.json.items[0] as { id: string };
    await server.request('POST', `/v1/links/${first.id}/disable`, { key: ownerKey });
    const disabled = await server.request('GET', '/v1/links?state=disabled', { key: ownerKey });
    assert.deepEqual(
      disabled.json.items.map((l: { id: string }) => l.id),
      [first.id],
    );
    const active = await server.request('GET', '/v1/links?state=active&limit=100', {
      key: ownerKey,
    });
    assert.equal(active.json.items.length, 24);
  });

  test('an owner sees only their links; an admin sees all or filters by owner', async () => {
    await server.request('POST', '/v1/links', { body: { destination: 'https://admin.example/' } });
    const mine = await server.request('GET', '/v1/links?limit=100', { key: ownerKey });
    assert.ok(mine.json.items.every((l: { owner: string }) => l.owner === 'lister'));
    const all = await server.request('GET', '/v1/links?limit=100');
    assert.equal(all.json.items.length, 26);
    const lister = await server.request('GET', '/v1/links?owner=lister&limit=100');
    assert.equal(lister.json.items.length, 25);
    const own = await server.request('GET', '/v1/links?owner=lister&limit=1', { key: ownerKey });
    assert.equal(own.status, 200, 'an owner may name themselves');
  });
});
