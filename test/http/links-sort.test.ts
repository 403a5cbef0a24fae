import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Listed {
  id: string;
  code: string;
  clicks: number;
  expires_at: string | null;
}

/** GET /v1/links?sort (ADR 0097): clicks, expiry and creation, both ways, paged by cursor. */
describe('links API: sorting the list', () => {
  let server: TestServer;
  let key: string;
  /** Clicks given to the links, in creation order. */
  const clicks = [3, 0, 7, 3, 1];
  /** Seconds to expiry; null: the default expiry, the latest of them. */
  const ttls = [7200, null, 3600, 10800, 3600];
  let links: Listed[] = [];
  before(async () => {
    server = await startTestServer();
    key = await server.ownerKey('sorter');
    for (const [i, ttl] of ttls.entries()) {
      const created = await server.request('POST', '/v1/links', {
        key,
        body: {
          destination: `https://sort.example/${i}`,
          ...(ttl === null ? {} : { ttl_seconds: ttl }),
        },
      });
      assert.equal(created.status, 201, created.text);
      links.push(created.json as Listed);
      server.clock.advance(1);
    }
    for (const [i, link] of links.entries()) {
      for (let n = 0; n < clicks[i]!; n++) {
        const response = await server.request('GET', `/${link.code}`, {
          key: null,
          headers: { 'user-agent': BROWSER },
        });
        assert.equal(response.status, 302);
      }
    }
    const pipeline = server.runtime.clicks;
    assert.ok(pipeline !== null && pipeline.aggregator !== null);
    assert.equal(await pipeline.flusher.flush(), true);
    await pipeline.aggregator.drain();
    links = links.map((link, i) => ({ ...link, clicks: clicks[i]! }));
  });
  after(async () => {
    await server.close();
  });

  /** Every page of the list in `sort`, two at a time. */
  const pageThrough = async (sort: string): Promise<Listed[]> => {
    const seen: Listed[] = [];
    let cursor: string | null = null;
    do {
      const next: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await server.request('GET', `/v1/links?limit=2&sort=${sort}${next}`, { key });
      assert.equal(page.status, 200, page.text);
      seen.push(...(page.json.items as Listed[]));
      cursor = page.json.next_cursor;
    } while (cursor !== null);
    return seen;
  };
  const byIdThen = (key: (link: Listed) => number, descending: boolean) =>
    [...links]
      .sort((a, b) => {
        const order = key(a) - key(b) || (a.id < b.id ? -1 : 1);
        return descending ? -order : order;
      })
      .map((link) => link.code);
  const expiry = (link: Listed) =>
    link.expires_at === null ? Number.MAX_SAFE_INTEGER : Date.parse(link.expires_at);

  test('-clicks: most clicked first, every link once across pages', async () => {
    const listed = await pageThrough('-clicks');
    assert.deepEqual(
      listed.map((link) => link.clicks),
      [7, 3, 3, 1, 0],
    );
    assert.deepEqual(
      listed.map((link) => link.code),
      byIdThen((link) => link.clicks, true),
    );
  });

  test('clicks: least clicked first', async () => {
    const listed = await pageThrough('clicks');
    assert.deepEqual(
      listed.map((link) => link.code),
      byIdThen((link) => link.clicks, false),
    );
  });

  test('expires_at and -expires_at: soonest first, and the reverse', async () => {
    const soonest = await pageThrough('expires_at');
    assert.deepEqual(
      soonest.map((link) => link.code),
      byIdThen(expiry, false),
    );
    const latest = await pageThrough('-expires_at');
    assert.deepEqual(
      latest.map((link) => link.code),
      byIdThen(expiry, true),
    );
  });

  test('created is oldest first; -created (the default) newest first', async () => {
    const oldest = await pageThrough('created');
    assert.deepEqual(
      oldest.map((link) => link.code),
      links.map((link) => link.code),
    );
    const newest = await pageThrough('-created');
    assert.deepEqual(
      newest.map((link) => link.code),
      links.map((link) => link.code).reverse(),
    );
    const unsorted = await server.request('GET', '/v1/links?limit=2', { key });
    const sorted = await server.request('GET', '/v1/links?limit=2&sort=-created', { key });
    assert.deepEqual(unsorted.json, sorted.json, 'no sort is -created, cursor and all');
  });

  test('an unknown sort is a 422 naming the parameter; a cursor of another sort is refused', async () => {
    const bad = await server.request('GET', '/v1/links?sort=popularity', { key });
    assertProblem(bad, 422);
    assert.match(bad.text, /sort/);
    const page = await server.request('GET', '/v1/links?limit=2&sort=-clicks', { key });
    const cursor = encodeURIComponent(page.json.next_cursor as string);
    assertProblem(
      await server.request('GET', `/v1/links?limit=2&sort=expires_at&cursor=${cursor}`, { key }),
      422,
      'invalid-cursor',
    );
    assertProblem(
      await server.request('GET', `/v1/links?limit=2&cursor=${cursor}`, { key }),
      422,
      'invalid-cursor',
    );
    const forged = Buffer.from('{"sort":"-clicks","value":"1 OR 1=1","id":"x"}').toString(
      'base64url',
    );
    assertProblem(
      await server.request('GET', `/v1/links?sort=-clicks&cursor=${forged}`, { key }),
      422,
      'invalid-cursor',
    );
  });
});
