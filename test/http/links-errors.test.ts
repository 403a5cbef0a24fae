import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('links API: every 4xx of SPEC §3', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  before(async () => {
    server = await startTestServer();
    aliceKey = await server.ownerKey('alice');
    bobKey = await server.ownerKey('bob');
  });
  after(async () => {
    await server.close();
  });

  const create = (body: unknown, key?: string) =>
    server.request('POST', '/v1/links', { body, ...(key === undefined ? {} : { key }) });

  describe('401 without a valid key', () => {
    for (const [name, headers] of [
      ['no Authorization header', {}],
      ['an unknown key', { authorization: 'Bearer hop_not_a_real_key_at_all_000000' }],
      ['another scheme', { authorization: 'Basic YWxpY2U6c2VjcmV0' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ] as const) {
      test(name, async () => {
        for (const [method, path] of [
          ['POST', '/v1/links'],
          ['GET', '/v1/links'],
          ['GET', '/v1/links/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
          ['PATCH', '/v1/links/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
          ['DELETE', '/v1/links/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
          ['POST', '/v1/keys'],
          ['GET', '/v1/keys'],
        ] as const) {
          const response = await server.request(method, path, {
            key: null,
            headers,
            ...(method === 'GET' || method === 'DELETE'
              ? {}
              : { body: { destination: 'https://example.com/' } }),
          });
          assertProblem(response, 401, 'unauthorized');
          assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });
    }

    test('a revoked key', async () => {
      const issued = await server.request('POST', '/v1/keys', { body: { owner: 'carol' } });
      await server.request('DELETE', `/v1/keys/${issued.json.id}`);
      assertProblem(await create({ destination: 'https://example.com/' }, issued.json.key), 401);
    });
  });

  test('403: a non-admin key on admin routes and on another owner', async () => {
    // An owner's key lacks keys:write (ADR 0118).
    assertProblem(
      await server.request('POST', '/v1/keys', { key: aliceKey, body: { owner: 'x' } }),
      403,
      'insufficient-scope',
    );
    assertProblem(
      await server.request('GET', '/v1/keys', { key: aliceKey }),
      403,
      'insufficient-scope',
    );
    assertProblem(
      await server.request('DELETE', '/v1/keys/01ARZ3NDEKTSV4RRFFQ69G5FAV', { key: aliceKey }),
      403,
    );
    assertProblem(
      await server.request('GET', '/v1/links?owner=bob', { key: aliceKey }),
      403,
      'forbidden',
    );
  });

  test("404: another owner's link looks exactly like an unknown one", async () => {
    const bobs = await create({ destination: 'https://example.com/bob' }, bobKey);
    const id = bobs.json.id as string;
    const unknown = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { title: 'mine now' }],
      ['POST', '/disable', undefined],
      ['POST', '/enable', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const theirs = await server.request(method, `/v1/links/${id}${suffix}`, {
        key: aliceKey,
        body,
      });
      const nobody = await server.request(method, `/v1/links/${unknown}${suffix}`, {
        key: aliceKey,
        body,
      });
      assertProblem(theirs, 404, 'not-found');
      assertProblem(nobody, 404, 'not-found');
      assert.equal(theirs.json.detail, nobody.json.detail);
    }
    assert.equal(
      (await server.request('GET', '/v1/links', { key: aliceKey })).json.items.length,
      0,
      "bob's link is not in alice's list",
    );
    const still = await server.request('GET', `/v1/links/${id}`, { key: bobKey });
    assert.equal(still.json.version, 1, 'nothing alice tried changed it');
    assertProblem(await server.request('GET', '/v1/links/not-a-ulid'), 404);
    assertProblem(await server.request('DELETE', '/v1/keys/01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404);
  });

  test('409: a taken alias, also across owners; aliases are case-sensitive', async () => {
    assert.equal(
      (await create({ destination: 'https://a.example/', alias: 'promo' }, aliceKey)).status,
      201,
    );
    const taken = await create({ destination: 'https://b.example/', alias: 'promo' }, bobKey);
    assertProblem(taken, 409, 'alias-taken');
    assert.equal(taken.json.errors[0].field, 'alias');
    assert.equal(
      (await create({ destination: 'https://b.example/', alias: 'Promo' }, bobKey)).status,
      201,
    );
  });

  describe('422: invalid input', () => {
    const cases: [string, unknown, string, string][] = [
      [
        'javascript: destination',
        { destination: 'javascript:alert(1)' },
        'invalid-destination',
        'destination',
      ],
      [
        'private IP destination',
        { destination: 'http://10.0.0.1/' },
        'invalid-destination',
        'destination',
      ],
      [
        'own host destination',
        { destination: 'http://hop.test/abc' },
        'invalid-destination',
        'destination',
      ],
      [
        'credentials in destination',
        { destination: 'https://u:p@example.com/' },
        'invalid-destination',
        'destination',
      ],
      [
        'destination too long',
        { destination: `https://example.com/${'a'.repeat(2100)}` },
        'invalid-destination',
        'destination',
      ],
      [
        'alias too short',
        { destination: 'https://example.com/', alias: 'ab' },
        'invalid-alias',
        'alias',
      ],
      [
        'alias with a slash',
        { destination: 'https://example.com/', alias: 'a/b/c' },
        'invalid-alias',
        'alias',
      ],
      [
        'reserved alias',
        { destination: 'https://example.com/', alias: 'HealthZ' },
        'invalid-alias',
        'alias',
      ],
      [
        'alias too long',
        { destination: 'https://example.com/', alias: 'a'.repeat(65) },
        'invalid-alias',
        'alias',
      ],
      [
        'status code 303',
        { destination: 'https://example.com/', status_code: 303 },
        'invalid-status-code',
        'status_code',
      ],
      [
        'status code 200',
        { destination: 'https://example.com/', status_code: 200 },
        'invalid-status-code',
        'status_code',
      ],
      [
        'expires_at in the past',
        { destination: 'https://example.com/', expires_at: '2020-01-01T00:00:00Z' },
        'invalid-expiry',
        'expires_at',
      ],
      [
        'expires_at not RFC 3339',
        { destination: 'https://example.com/', expires_at: 'next week' },
        'invalid-expiry',
        'expires_at',
      ],
      [
        'expires_at beyond HOP_MAX_TTL',
        { destination: 'https://example.com/', expires_at: '2099-01-01T00:00:00Z' },
        'invalid-expiry',
        'expires_at',
      ],
      [
        'ttl_seconds beyond HOP_MAX_TTL',
        { destination: 'https://example.com/', ttl_seconds: 11 * 365 * 86400 },
        'invalid-expiry',
        'ttl_seconds',
      ],
      [
        'both expires_at and ttl_seconds',
        {
          destination: 'https://example.com/',
          expires_at: '2027-01-01T00:00:00Z',
          ttl_seconds: 60,
        },
        'invalid-expiry',
        'expires_at',
      ],
      [
        'ttl_seconds zero',
        { destination: 'https://example.com/', ttl_seconds: 0 },
        'invalid-request',
        'ttl_seconds',
      ],
      ['missing destination', { alias: 'nodest' }, 'invalid-request', 'destination'],
      ['destination not a string', { destination: 42 }, 'invalid-request', 'destination'],
      [
        'unknown field',
        { destination: 'https://example.com/', owner: 'mallory' },
        'invalid-request',
        'owner',
      ],
      [
        'status code as a string',
        { destination: 'https://example.com/', status_code: '302' },
        'invalid-request',
        'status_code',
      ],
      [
        'tags not an array',
        { destination: 'https://example.com/', tags: 'news' },
        'invalid-request',
        'tags',
      ],
      [
        'tag with spaces',
        { destination: 'https://example.com/', tags: ['two words'] },
        'invalid-request',
        'tags',
      ],
      [
        'title too long',
        { destination: 'https://example.com/', title: 'x'.repeat(201) },
        'invalid-request',
        'title',
      ],
      ['body is an array', [{ destination: 'https://example.com/' }], 'invalid-request', 'body'],
    ];
    for (const [name, body, kind, field] of cases) {
      test(name, async () => {
        const response = await create(body, aliceKey);
        assertProblem(response, 422, kind);
        assert.ok(
          response.json.errors.some((e: { field: string }) => e.field === field),
          `errors name ${field}: ${response.text}`,
        );
      });
    }

    test('PATCH with nothing, unknown fields or bad values', async () => {
      const link = await create({ destination: 'https://example.com/p' }, aliceKey);
      const path = `/v1/links/${link.json.id}`;
      assertProblem(await server.request('PATCH', path, { key: aliceKey, body: {} }), 422);
      assertProblem(
        await server.request('PATCH', path, { key: aliceKey, body: { code: 'newcode' } }),
        422,
        'invalid-request',
      );
      assertProblem(
        await server.request('PATCH', path, {
          key: aliceKey,
          body: { destination: 'ftp://x.example/' },
        }),
        422,
        'invalid-destination',
      );
      assertProblem(
        await server.request('PATCH', path, { key: aliceKey, body: { status_code: 304 } }),
        422,
        'invalid-status-code',
      );
      assertProblem(
        await server.request('PATCH', path, { key: aliceKey, body: { expires_at: null } }),
        422,
        'invalid-expiry',
      );
      const unchanged = await server.request('GET', path, { key: aliceKey });
      assert.equal(unchanged.json.version, 1, 'a refused PATCH changes nothing');
    });

    test('list: limit above 100, bad state, bad cursor', async () => {
      assertProblem(await server.request('GET', '/v1/links?limit=101', { key: aliceKey }), 422);
      assertProblem(await server.request('GET', '/v1/links?limit=0', { key: aliceKey }), 422);
      assertProblem(await server.request('GET', '/v1/links?limit=ten', { key: aliceKey }), 422);
      assertProblem(await server.request('GET', '/v1/links?state=gone', { key: aliceKey }), 422);
      assertProblem(
        await server.request('GET', '/v1/links?cursor=garbage', { key: aliceKey }),
        422,
        'invalid-cursor',
      );
      const forged = Buffer.from('{"before":"\' OR 1=1 --"}').toString('base64url');
      assertProblem(
        await server.request('GET', `/v1/links?cursor=${forged}`, { key: aliceKey }),
        422,
        'invalid-cursor',
      );
    });

    test('keys: bad owner, unknown field', async () => {
      assertProblem(
        await server.request('POST', '/v1/keys', { body: { owner: 'has space' } }),
        422,
      );
      assertProblem(await server.request('POST', '/v1/keys', { body: { owner: '' } }), 422);
      assertProblem(await server.request('POST', '/v1/keys', { body: {} }), 422);
      assertProblem(
        await server.request('POST', '/v1/keys', { body: { owner: 'ok', admin: 'yes' } }),
        422,
      );
    });
  });

  test('422: an Idempotency-Key reused with a different request, or malformed', async () => {
    const first = await server.request('POST', '/v1/links', {
      key: aliceKey,
      headers: { 'idempotency-key': 'order-17' },
      body: { destination: 'https://example.com/one' },
    });
    assert.equal(first.status, 201);
    const other = await server.request('POST', '/v1/links', {
      key: aliceKey,
      headers: { 'idempotency-key': 'order-17' },
      body: { destination: 'https://example.com/two' },
    });
    assertProblem(other, 422, 'idempotency-key-reused');
    const tooLong = await server.request('POST', '/v1/links', {
      key: aliceKey,
      headers: { 'idempotency-key': 'k'.repeat(129) },
      body: { destination: 'https://example.com/three' },
    });
    assertProblem(tooLong, 422, 'invalid-request');
  });
});

describe('429: creates are rate limited per key and per client address', () => {
  let server: TestServer;
  before(async () => {
    // The test client is on loopback: trusting it as a proxy lets each test speak for a
    // client address of its own through X-Forwarded-For.
    server = await startTestServer({ HOP_CREATE_RATE: '1/m:2', HOP_TRUST_PROXY: 'loopback' });
  });
  after(async () => {
    await server.close();
  });
  const from = (address: string, extra: Record<string, string> = {}) => ({
    'x-forwarded-for': address,
    ...extra,
  });

  test('a burst over the limit gets 429 with Retry-After and RateLimit fields, then recovers', async () => {
    const key = await server.ownerKey('busy');
    const body = { destination: 'https://example.com/' };
    const headers = from('198.51.100.1');
    const first = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('ratelimit-policy'), '"key";q=2;w=120, "ip";q=2;w=120');
    assert.equal(first.headers.get('ratelimit'), '"key";r=1;t=60, "ip";r=1;t=60');
    const second = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('ratelimit'), '"key";r=0;t=120, "ip";r=0;t=120');

    const limited = await server.request('POST', '/v1/links', { key, body, headers });
    assertProblem(limited, 429, 'rate-limited');
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.equal(limited.headers.get('ratelimit-policy'), '"key";q=2;w=120, "ip";q=2;w=120');
    assert.equal(limited.headers.get('ratelimit'), '"key";r=0;t=60, "ip";r=0;t=60');

    // Half the wait is not enough; the whole of it is.
    server.clock.advance(30_000);
    const early = await server.request('POST', '/v1/links', { key, body, headers });
    assertProblem(early, 429, 'rate-limited');
    assert.equal(early.headers.get('retry-after'), '30');
    server.clock.advance(30_000);
    const recovered = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(recovered.status, 201);
    assert.equal(recovered.headers.get('ratelimit'), '"key";r=0;t=120, "ip";r=0;t=120');
  });

  test('keys at one address share its bucket; one key at many addresses keeps its own', async () => {
    const first = await server.ownerKey('first-tenant');
    const second = await server.ownerKey('second-tenant');
    const body = { destination: 'https://example.com/shared-address' };
    const shared = from('198.51.100.2');
    assert.equal(
      (await server.request('POST', '/v1/links', { key: first, body, headers: shared })).status,
      201,
    );
    assert.equal(
      (await server.request('POST', '/v1/links', { key: first, body, headers: shared })).status,
      201,
    );
    const otherKeySameAddress = await server.request('POST', '/v1/links', {
      key: second,
      body,
      headers: shared,
    });
    assertProblem(otherKeySameAddress, 429, 'rate-limited');
    assert.match(otherKeySameAddress.json.detail, /address/);
    // The same tenant elsewhere is not held back by that address.
    const elsewhere = await server.request('POST', '/v1/links', {
      key: second,
      body,
      headers: from('198.51.100.3'),
    });
    assert.equal(elsewhere.status, 201);
    // And the first key is empty wherever it goes.
    const roaming = await server.request('POST', '/v1/links', {
      key: first,
      body,
      headers: from('198.51.100.4'),
    });
    assertProblem(roaming, 429, 'rate-limited');
    assert.match(roaming.json.detail, /key/);
  });

  test('IPv6 clients are counted by their /64', async () => {
    const body = { destination: 'https://example.com/v6' };
    const a = await server.ownerKey('v6-a');
    const b = await server.ownerKey('v6-b');
    const c = await server.ownerKey('v6-c');
    const one = from('2001:db8:5:6::1');
    const sameSixtyFour = from('2001:db8:5:6:ffff::2');
    assert.equal(
      (await server.request('POST', '/v1/links', { key: a, body, headers: one })).status,
      201,
    );
    assert.equal(
      (await server.request('POST', '/v1/links', { key: b, body, headers: sameSixtyFour })).status,
      201,
    );
    assertProblem(
      await server.request('POST', '/v1/links', { key: c, body, headers: from('2001:db8:5:6::3') }),
      429,
      'rate-limited',
    );
    assert.equal(
      (
        await server.request('POST', '/v1/links', {
          key: c,
          body,
          headers: from('2001:db8:5:7::1'),
        })
      ).status,
      201,
    );
  });

  test('admin keys are exempt and get no RateLimit fields', async () => {
    const body = { destination: 'https://example.com/admin' };
    for (let i = 0; i < 5; i++) {
      const created = await server.request('POST', '/v1/links', {
        body,
        headers: from('198.51.100.5'),
      });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('ratelimit'), null);
    }
  });

  test('a retried create with its Idempotency-Key is replayed even while limited', async () => {
    const key = await server.ownerKey('retrier');
    const body = { destination: 'https://example.com/retry' };
    const address = from('198.51.100.6');
    const retry = from('198.51.100.6', { 'idempotency-key': 'retry-1' });
    const first = await server.request('POST', '/v1/links', { key, body, headers: retry });
    assert.equal(first.status, 201);
    await server.request('POST', '/v1/links', { key, body, headers: address });
    assertProblem(await server.request('POST', '/v1/links', { key, body, headers: address }), 429);
    const replay = await server.request('POST', '/v1/links', { key, body, headers: retry });
    assert.equal(replay.status, 200);
    assert.equal(replay.json.id, first.json.id);
  });
});

describe('429: without HOP_TRUST_PROXY a client cannot pick its address', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_CREATE_RATE: '1/m:1' });
  });
  after(async () => {
    await server.close();
  });

  test('X-Forwarded-For is ignored: two keys from loopback share one bucket', async () => {
    const body = { destination: 'https://example.com/spoof' };
    const a = await server.ownerKey('spoof-a');
    const b = await server.ownerKey('spoof-b');
    const spoofed = { 'x-forwarded-for': '203.0.113.9' };
    assert.equal(
      (await server.request('POST', '/v1/links', { key: a, body, headers: spoofed })).status,
      201,
    );
    const second = await server.request('POST', '/v1/links', {
      key: b,
      body,
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    assertProblem(second, 429, 'rate-limited');
    assert.match(second.json.detail, /address/);
  });
});
