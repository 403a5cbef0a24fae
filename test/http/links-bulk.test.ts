import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { principalFor } from '../../src/domain/principal.js';
import { createLinks } from '../../src/services/links/bulk/create-links.js';
import { runBulkCall } from '../../src/services/links/bulk/run-bulk-call.js';
import { assertProblem } from '../support/problem-assertions.js';
import { requestOnHost } from '../support/request-on-host.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Issue 22 bulk routes (ADR 0120): each item answered as its single call would be. */
describe('bulk links API', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  let run = 0;
  before(async () => {
    // Creates are limited per client address too: every test here comes from 127.0.0.1.
    server = await startTestServer({ HOP_CREATE_RATE: 'off' });
    aliceKey = await server.ownerKey('alice');
    bobKey = await server.ownerKey('bob');
  });
  after(async () => {
    await server.close();
  });

  /** A name no other test (or run on the shared PostgreSQL) uses. */
  const unique = (name: string) => `${name}-${process.pid}-${++run}`;
  const bulk = (method: string, body: unknown, options: { key?: string; idem?: string } = {}) =>
    server.request(method, '/v1/links/bulk', {
      body,
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.idem === undefined ? {} : { headers: { 'idempotency-key': options.idem } }),
    });
  const createOne = async (body: Record<string, unknown>, key: string) => {
    const response = await server.request('POST', '/v1/links', { body, key });
    assert.equal(response.status, 201, response.text);
    return response.json as { id: string; code: string };
  };
  const redirectOf = (code: string) => server.request('GET', `/${code}`, { key: null });

  test('1,000 creates with bad items among them: each answered as alone, the good ones redirect', async () => {
    const taken = unique('taken');
    await createOne({ destination: 'https://example.com/first', alias: taken }, aliceKey);
    const twice = unique('twice');
    // Long destinations: the body is well over the 64 KiB limit of other routes.
    const links: unknown[] = Array.from({ length: 1000 }, (_, i) => ({
      destination: `https://example.com/${'p'.repeat(100)}/${i}`,
      tags: ['bulk'],
    }));
    const bad: Record<number, [number, string, unknown]> = {
      3: [422, 'invalid-destination', { destination: 'not a url' }],
      10: [422, 'invalid-alias', { destination: 'https://example.com/', alias: 'healthz' }],
      20: [409, 'alias-taken', { destination: 'https://example.com/', alias: taken }],
      31: [409, 'alias-taken', { destination: 'https://example.com/31', alias: twice }],
      40: [422, 'invalid-status-code', { destination: 'https://example.com/', status_code: 999 }],
      50: [422, 'invalid-request', { destination: 5 }],
      60: [422, 'invalid-request', { destination: 'https://example.com/', colour: 'red' }],
      70: [422, 'invalid-request', 'https://example.com/not-an-object'],
    };
    for (const [index, [, , body]] of Object.entries(bad)) links[Number(index)] = body;
    links[30] = { destination: 'https://example.com/30', alias: twice };
    assert.ok(JSON.stringify({ links }).length > 64 * 1024);

    const response = await bulk('POST', { links });
    assert.equal(response.status, 207, response.text);
    const results = response.json.results as any[];
    assert.equal(results.length, 1000);
    results.forEach((result, index) => {
      assert.equal(result.index, index);
      const expected = bad[index];
      if (expected === undefined) {
        assert.equal(result.status, 201, JSON.stringify(result));
        assert.equal(result.problem, undefined);
        return;
      }
      const [status, kind] = expected;
      assert.equal(result.status, status, JSON.stringify(result));
      assert.equal(result.problem.status, status);
      assert.equal(result.problem.type, `urn:hop:problem:${kind}`);
      assert.equal(result.link, undefined);
    });
    assert.deepEqual(results[50].problem.errors, [
      { field: 'destination', detail: 'must be a string' },
    ]);
    assert.equal(results[60].problem.errors[0].field, 'colour');
    assert.equal(results[30].link.code, twice);
    assert.equal(results[30].link.destination, 'https://example.com/30');
    assert.equal(results[0].link.clicks, 0);
    assert.deepEqual(results[0].link.tags, ['bulk']);
    assert.equal(results[70].problem.detail, 'The request body must be a JSON object.');
    assert.equal(new Set(results.flatMap((r) => (r.link ? [r.link.code] : []))).size, 992);

    for (const index of [0, 30, 499, 999]) {
      const redirect = await redirectOf(results[index].link.code);
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get('location'), results[index].link.destination);
    }
    const fetched = await server.request('GET', `/v1/links/${results[999].link.id}`);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.json.code, results[999].link.code);
  });

  test("one alias on two domains is two links; an unknown domain is its item's 422", async () => {
    const host = `bulk-${process.pid}-${++run}.test`;
    const now = Date.now();
    await server.runtime.store.domains.insertDomain({
      host,
      rootRedirect: null,
      notFoundRedirect: null,
      https: true,
      createdAt: now,
      updatedAt: now,
    });
    await server.runtime.domainRoutes.reload();
    const alias = unique('both');
    const links = [
      { destination: 'https://example.com/default', alias },
      { destination: 'https://example.com/other', alias, domain: host },
      { destination: 'https://example.com/again', alias, domain: host.toUpperCase() },
      { destination: 'https://example.com/', domain: 'nowhere.test' },
    ];
    const response = await bulk('POST', { links }, { key: aliceKey });
    const results = response.json.results as any[];
    assert.deepEqual(
      results.map((result) => result.status),
      [201, 201, 409, 422],
    );
    assert.equal(results[1].link.domain, host);
    assert.equal(results[1].link.short_url, `https://${host}/${alias}`);
    assert.equal(results[3].problem.errors[0].field, 'domain');
    const onDomain = await requestOnHost(server.url, 'GET', `/${alias}`, host);
    assert.equal(onDomain.location, 'https://example.com/other');
    assert.equal((await redirectOf(alias)).headers.get('location'), 'https://example.com/default');
  });

  test('an Idempotency-Key answers a replay with the first answer and creates nothing again', async () => {
    const idem = unique('idem');
    const alias = unique('replayed');
    const links = [
      { destination: 'https://example.com/a', alias },
      { destination: 'https://example.com/b', title: 'B' },
      { destination: 'nope' },
    ];
    const first = await bulk('POST', { links }, { key: aliceKey, idem });
    assert.equal(first.status, 207, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // The same request, its fields in another order.
    const reordered = links.map((link) => Object.fromEntries(Object.entries(link).reverse()));
    const replay = await bulk('POST', { links: reordered }, { key: aliceKey, idem });
    assert.equal(replay.status, 207);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);

    const listed = await server.request('GET', `/v1/links?q=example.com%2Fb&limit=100`, {
      key: aliceKey,
    });
    const ids = (listed.json.items as any[]).map((link) => link.id);
    assert.ok(ids.includes(first.json.results[1].link.id));
    assert.equal(ids.filter((id) => id === first.json.results[1].link.id).length, 1);
    assert.equal(
      (listed.json.items as any[]).filter((link) => link.title === 'B' && link.owner === 'alice')
        .length,
      1,
    );

    const other = await bulk('POST', { links: links.slice(1) }, { key: aliceKey, idem });
    assertProblem(other, 422, 'idempotency-key-reused');
    const asDelete = await bulk('DELETE', { ids: ['x1234'] }, { key: aliceKey, idem });
    assertProblem(asDelete, 422, 'idempotency-key-reused');
    // Keys are per owner: bob's call with the same key is his own.
    const bobs = await bulk('POST', { links: links.slice(1, 2) }, { key: bobKey, idem });
    assert.equal(bobs.status, 207);
    assert.equal(bobs.headers.get('idempotent-replayed'), null);
  });

  test('a replay must carry the same passwords, which are never kept as given', async () => {
    const idem = unique('secret');
    const links = [{ destination: 'https://example.com/secret', password: 'correct horse' }];
    const first = await bulk('POST', { links }, { key: aliceKey, idem });
    assert.equal(first.json.results[0].status, 201, first.text);
    const replay = await bulk('POST', { links }, { key: aliceKey, idem });
    assert.equal(replay.text, first.text);
    const wrong = [{ destination: 'https://example.com/secret', password: 'battery staple' }];
    assertProblem(await bulk('POST', { links: wrong }, { key: aliceKey, idem }), 422);
  });

  test('PATCH changes tags, state, expiry and destination; ids not visible are 404 each', async () => {
    const mine = [
      await createOne({ destination: 'https://example.com/m1', tags: ['old', 'keep'] }, aliceKey),
      await createOne({ destination: 'https://example.com/m2', tags: ['keep'] }, aliceKey),
    ];
    const bobs = await createOne({ destination: 'https://example.com/bob' }, bobKey);
    const ids = [mine[0]!.id, bobs.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV', mine[1]!.code];
    const patch = { add_tags: ['new'], remove_tags: ['old'], state: 'disabled' };
    const response = await bulk('PATCH', { ids, patch }, { key: aliceKey });
    assert.equal(response.status, 207, response.text);
    const results = response.json.results as any[];
    assert.deepEqual(
      results.map((result) => [result.id, result.status]),
      ids.map((id, i) => [id, i === 1 || i === 2 ? 404 : 200]),
    );
    assert.deepEqual(results[0].link.tags, ['keep', 'new']);
    assert.deepEqual(results[3].link.tags, ['keep', 'new']);
    assert.equal(results[0].link.state, 'disabled');
    assert.equal(results[1].problem.type, 'urn:hop:problem:not-found');
    assert.equal((await redirectOf(mine[0]!.code)).status, 404);
    const untouched = await server.request('GET', `/v1/links/${bobs.id}`, { key: bobKey });
    assert.equal(untouched.json.version, 1);

    const again = await bulk(
      'PATCH',
      {
        ids: [mine[0]!.id],
        patch: {
          state: 'active',
          destination: 'https://example.com/moved',
          expires_at: '2027-01-01T00:00:00Z',
          tags: ['only'],
        },
      },
      { key: aliceKey },
    );
    const link = again.json.results[0].link;
    assert.equal(link.state, 'active');
    assert.equal(link.destination, 'https://example.com/moved');
    assert.equal(link.expires_at, '2027-01-01T00:00:00.000Z');
    assert.deepEqual(link.tags, ['only']);
    assert.equal((await redirectOf(mine[0]!.code)).headers.get('location'), link.destination);

    const invalid = await bulk(
      'PATCH',
      { ids: [mine[1]!.id], patch: { destination: 'ftp://example.com/' } },
      { key: aliceKey },
    );
    assert.equal(invalid.json.results[0].status, 422);
    assert.equal(invalid.json.results[0].problem.type, 'urn:hop:problem:invalid-destination');
  });

  test('DELETE deletes each visible link; others, and the second of a repeated id, are 404', async () => {
    const first = await createOne({ destination: 'https://example.com/d1' }, aliceKey);
    const second = await createOne({ destination: 'https://example.com/d2' }, aliceKey);
    const bobs = await createOne({ destination: 'https://example.com/d3' }, bobKey);
    const ids = [first.id, bobs.id, second.id, first.id];
    const response = await bulk('DELETE', { ids }, { key: aliceKey });
    assert.equal(response.status, 207, response.text);
    assert.deepEqual(response.json.results, [
      { id: first.id, status: 204 },
      response.json.results[1],
      { id: second.id, status: 204 },
      response.json.results[3],
    ]);
    for (const index of [1, 3]) {
      assert.equal(response.json.results[index].status, 404);
      assert.equal(response.json.results[index].problem.type, 'urn:hop:problem:not-found');
    }
    assert.equal((await redirectOf(first.code)).status, 404);
    assert.equal(
      (await server.request('GET', `/v1/links/${bobs.id}`, { key: bobKey })).status,
      200,
    );
  });

  test('more than 1,000 items, or none, is a 422 for the whole call', async () => {
    const many = Array.from({ length: 1001 }, () => ({ destination: 'https://example.com/' }));
    assertProblem(await bulk('POST', { links: many }), 422, 'invalid-request');
    assertProblem(await bulk('POST', { links: [] }), 422, 'invalid-request');
    assertProblem(await bulk('POST', {}), 422, 'invalid-request');
    const ids = Array.from({ length: 1001 }, (_, i) => `code${i}`);
    assertProblem(await bulk('DELETE', { ids }), 422, 'invalid-request');
    assertProblem(await bulk('DELETE', { ids: [] }), 422, 'invalid-request');
    assertProblem(await bulk('PATCH', { ids: ['abc'], patch: {} }), 422, 'invalid-request');
    assertProblem(
      await bulk('PATCH', { ids: ['abc'], patch: { state: 'deleted' } }),
      422,
      'invalid-request',
    );
  });

  test('without a key 401; a malformed Idempotency-Key 422', async () => {
    for (const [method, body] of [
      ['POST', { links: [{ destination: 'https://example.com/' }] }],
      ['PATCH', { ids: ['abc'], patch: { state: 'disabled' } }],
      ['DELETE', { ids: ['abc'] }],
    ] as const) {
      assertProblem(
        await server.request(method, '/v1/links/bulk', { body, key: null }),
        401,
        'unauthorized',
      );
      const badKey = await server.request(method, '/v1/links/bulk', {
        body,
        headers: { 'idempotency-key': 'with space' },
      });
      assertProblem(badKey, 422, 'invalid-request');
    }
  });

  test('a body past the bulk bound is 413; other routes keep their 64 KiB', async () => {
    const huge = JSON.stringify({
      links: [{ destination: `https://example.com/${'x'.repeat(5 * 1024 * 1024)}` }],
    });
    const response = await server.request('POST', '/v1/links/bulk', {
      rawBody: huge,
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(response, 413, 'payload-too-large');
    const single = await server.request('POST', '/v1/links', {
      body: { destination: `https://example.com/${'x'.repeat(70 * 1024)}` },
    });
    assertProblem(single, 413, 'payload-too-large');
  });

  test('a call while the first with its key runs is 409; one that failed whole frees the key', async () => {
    const principal = principalFor({ id: 'key-runner', owner: unique('runner'), admin: false });
    const calls = server.runtime.appDeps.bulkCalls;
    const key = unique('running');
    const request = { operation: 'delete', body: { ids: ['a1b2c3'] } } as const;
    let finish: (answer: string) => void = () => undefined;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const first = runBulkCall(calls, principal, key, request, () => {
      running();
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    });
    await started;
    await assert.rejects(
      runBulkCall(calls, principal, key, request, async () => 'twice'),
      (error: any) => error.kind === 'idempotency-key-in-use' && error.retryAfterSeconds === 1,
    );
    finish('{"results":[]}');
    assert.deepEqual(await first, { answer: '{"results":[]}', replayed: false });
    assert.deepEqual(await runBulkCall(calls, principal, key, request, async () => 'again'), {
      answer: '{"results":[]}',
      replayed: true,
    });

    const failing = unique('failing');
    await assert.rejects(
      runBulkCall(calls, principal, failing, request, async () => {
        throw new Error('the store went away');
      }),
      /the store went away/,
    );
    assert.deepEqual(await runBulkCall(calls, principal, failing, request, async () => 'ran'), {
      answer: 'ran',
      replayed: false,
    });
  });

  test('a key without links:write is 403 insufficient-scope on every bulk route', async () => {
    const issued = await server.request('POST', '/v1/keys', {
      body: { owner: 'alice', scopes: ['links:read'] },
    });
    assert.equal(issued.status, 201, issued.text);
    const key = issued.json.key as string;
    const idem = unique('refused');
    for (const [method, body] of [
      ['POST', { links: [{ destination: 'https://example.com/' }] }],
      ['PATCH', { ids: ['abc'], patch: { state: 'disabled' } }],
      ['DELETE', { ids: ['abc'] }],
    ] as const) {
      const response = await bulk(method, body, { key, idem });
      assertProblem(response, 403, 'insufficient-scope');
      assert.equal(response.json.errors[0].detail, 'links:write');
    }
    // Nothing was claimed: the owner's writing key may use the Idempotency-Key afresh.
    const allowed = await bulk('DELETE', { ids: ['abc'] }, { key: aliceKey, idem });
    assert.equal(allowed.status, 207);
    assert.equal(allowed.headers.get('idempotent-replayed'), null);
  });

  test('a key without links:write is refused before anything runs or is claimed', async () => {
    const reader = principalFor({
      id: 'key-reader',
      owner: unique('reader'),
      admin: false,
      scopes: ['links:read'],
    });
    const deps = server.runtime.linkService;
    await assert.rejects(
      createLinks(deps, reader, [{ destination: 'https://example.com/' }]),
      (error: any) => error.kind === 'insufficient-scope',
    );
    let ran = false;
    await assert.rejects(
      runBulkCall(
        server.runtime.appDeps.bulkCalls,
        reader,
        unique('scope'),
        { operation: 'create', body: {} },
        async () => {
          ran = true;
          return '';
        },
      ),
      (error: any) => error.kind === 'insufficient-scope',
    );
    assert.equal(ran, false);
  });
});

describe('bulk links API: create limits', () => {
  test("each create counts against the key's create limit, as single creates do", async (t) => {
    const server = await startTestServer({ HOP_CREATE_RATE: '1/s:10' });
    t.after(() => server.close());
    const key = await server.ownerKey('limited');
    const links = Array.from({ length: 15 }, (_, i) => ({
      destination: `https://example.com/limited/${i}`,
    }));
    const response = await server.request('POST', '/v1/links/bulk', { body: { links }, key });
    assert.equal(response.status, 207, response.text);
    const statuses = (response.json.results as any[]).map((result) => result.status);
    // A burst of 10; the test's clock stands still.
    assert.deepEqual(statuses, [...Array(10).fill(201), ...Array(5).fill(429)]);
    assert.equal(response.json.results[14].problem.type, 'urn:hop:problem:rate-limited');
    assert.match(response.headers.get('ratelimit') ?? '', /"key";r=0/);
  });
});
