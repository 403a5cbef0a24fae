/**
 * Every /v1/links/{id} route takes the link's code (or alias) as well as its id (issue 20;
 * ADR 0101): people have the code, not the ULID. Owner scoping holds for codes as for ids.
 * Runs on SQLite and, through on-postgres.test.ts, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeLink } from '../contract/store-factories.js';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface LinkJson {
  id: string;
  code: string;
  state: string;
  destination: string;
}

describe('a link named by its code', () => {
  let server: TestServer;
  let ownerKey: string;
  before(async () => {
    server = await startTestServer();
    ownerKey = await server.ownerKey('code-namer');
  });
  after(async () => {
    await server.close();
  });

  async function create(body: Record<string, unknown>, key = server.adminKey): Promise<LinkJson> {
    const created = await server.request('POST', '/v1/links', { body, key });
    assert.equal(created.status, 201, created.text);
    return created.json as LinkJson;
  }

  for (const kind of ['generated code', 'alias'] as const) {
    test(`get, patch, disable, enable, qr, analytics and delete by its ${kind}`, async () => {
      const alias = kind === 'alias' ? { alias: 'named-by-alias' } : {};
      const link = await create({ destination: 'https://example.com/by-code', ...alias });
      const name = link.code;
      const got = await server.request('GET', `/v1/links/${name}`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.json.id, link.id);
      const patched = await server.request('PATCH', `/v1/links/${name}`, {
        body: { destination: 'https://example.com/by-code-2' },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.destination, 'https://example.com/by-code-2');
      assert.equal(
        (await server.request('POST', `/v1/links/${name}/disable`)).json.state,
        'disabled',
      );
      assert.equal((await server.request('POST', `/v1/links/${name}/enable`)).json.state, 'active');
      const qr = await server.request('GET', `/v1/links/${name}/qr`);
      assert.equal(qr.status, 200);
      assert.match(qr.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      const analytics = await server.request('GET', `/v1/links/${name}/analytics`);
      assert.equal(analytics.status, 200, analytics.text);
      assert.equal(analytics.json.total, 0);
      assert.equal((await server.request('DELETE', `/v1/links/${name}`)).status, 204);
      // Deleted: gone by its code as by its id.
      assertProblem(await server.request('GET', `/v1/links/${name}`), 404, 'not-found');
      assertProblem(await server.request('GET', `/v1/links/${link.id}`), 404, 'not-found');
    });
  }

  test("another owner's code is not found, exactly like an unknown one", async () => {
    const admins = await create({ destination: 'https://example.com/admins' });
    const theirs = await server.request('GET', `/v1/links/${admins.code}`, { key: ownerKey });
    const unknown = await server.request('GET', '/v1/links/no-such-code', { key: ownerKey });
    assertProblem(theirs, 404, 'not-found');
    assertProblem(unknown, 404, 'not-found');
    assert.equal(theirs.json.detail, unknown.json.detail);
    for (const [method, path] of [
      ['PATCH', ''],
      ['POST', '/disable'],
      ['DELETE', ''],
      ['GET', '/qr'],
      ['GET', '/analytics'],
    ] as const) {
      const response = await server.request(method, `/v1/links/${admins.code}${path}`, {
        key: ownerKey,
        ...(method === 'PATCH' ? { body: { title: 'mine now' } } : {}),
      });
      assertProblem(response, 404, 'not-found');
    }
    const untouched = await server.request('GET', `/v1/links/${admins.id}`);
    assert.equal(untouched.json.state, 'active');
    assert.equal(untouched.json.title, null);
    // The owner reaches their own link by its code.
    const own = await create({ destination: 'https://example.com/own' }, ownerKey);
    const mine = await server.request('GET', `/v1/links/${own.code}`, { key: ownerKey });
    assert.equal(mine.json.id, own.id);
  });

  test('an id means its own link, even where another link holds that string as its code', async () => {
    const target = await create({ destination: 'https://example.com/target' });
    // Aliases may no longer look like ids; a code from before that rule still could.
    const shadow = makeLink({ code: target.id, destination: 'https://example.com/shadow' });
    assert.equal(await server.runtime.store.links.importLinks([shadow]), 1);
    const got = await server.request('GET', `/v1/links/${target.id}`);
    assert.equal(got.json.destination, 'https://example.com/target');
    const aliasLikeId = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/x', alias: '01JEXAMPQE0000000000000000' },
    });
    assertProblem(aliasLikeId, 422, 'invalid-alias');
    assert.match(aliasLikeId.json.detail, /shape of a link id/);
  });

  test('a name that is neither an id nor a possible code: 404', async () => {
    for (const name of ['a', 'has%20space', 'x'.repeat(65)]) {
      assertProblem(await server.request('GET', `/v1/links/${name}`), 404, 'not-found');
    }
  });
});
