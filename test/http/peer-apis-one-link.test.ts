import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Kutt } from 'kutt';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The part of the Shlink SDK used here: its .d.ts files are beyond NodeNext resolution. */
interface ShlinkClient {
  getShortUrl(id: { shortCode: string }): Promise<{ longUrl: string; title: string | null }>;
  updateShortUrl(
    id: { shortCode: string },
    edit: { longUrl?: string; title?: string },
  ): Promise<unknown>;
}
const { ShlinkApiClient } = (await import('@shlinkio/shlink-js-sdk')) as unknown as {
  ShlinkApiClient: new (http: unknown, server: { baseUrl: string; apiKey: string }) => ShlinkClient;
};
const { FetchHttpClient } = (await import('@shlinkio/shlink-js-sdk/fetch')) as unknown as {
  FetchHttpClient: new () => unknown;
};

/**
 * Issue 24: "The same link seen through /v1, Shlink, Kutt and YOURLS is one link: an edit
 * through one shows through the others." Each API is driven as its own clients drive it.
 */
describe('one link, four APIs (issue 24)', () => {
  let server: TestServer;
  let key: string;
  let shlink: ShlinkClient;
  let kutt: Kutt;

  before(async () => {
    server = await startTestServer();
    key = await server.ownerKey('one-link-owner');
    shlink = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: server.url, apiKey: key });
    kutt = new Kutt().set('api', `${server.url}/api/v2`).set('key', key);
  });
  after(async () => {
    await server.close();
  });

  /** YOURLS as python-yourls asks: GET, `format=json`, the key as `signature`. */
  const yourls = async (params: Record<string, string>) => {
    const query = new URLSearchParams({ ...params, format: 'json', signature: key });
    const response = await fetch(`${server.url}/yourls-api.php?${query.toString()}`);
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const v1 = (method: string, path: string, body?: unknown) =>
    server.request(method, path, { key, ...(body === undefined ? {} : { body }) });

  test('made through /v1, then edited through Shlink, Kutt and YOURLS in turn', async () => {
    const made = await v1('POST', '/v1/links', {
      destination: 'https://example.com/first',
      alias: 'one-link',
      title: 'First',
    });
    assert.equal(made.status, 201, made.text);
    const id = made.json.id as string;

    // Shlink sees the /v1 link, and its edit shows through /v1.
    const seen = await shlink.getShortUrl({ shortCode: 'one-link' });
    assert.equal(seen.longUrl, 'https://example.com/first');
    assert.equal(seen.title, 'First');
    await shlink.updateShortUrl(
      { shortCode: 'one-link' },
      { longUrl: 'https://example.com/second', title: 'Second' },
    );
    const afterShlink = await v1('GET', `/v1/links/${id}`);
    assert.equal(afterShlink.json.destination, 'https://example.com/second');
    assert.equal(afterShlink.json.title, 'Second');

    // Kutt lists the same link under the same id, and its edit shows through Shlink.
    const listed = await kutt.links().list({ limit: 50 });
    const asKutt = listed.data.find((link) => link.address === 'one-link');
    assert.ok(asKutt, 'Kutt lists the link');
    assert.equal(asKutt.target, 'https://example.com/second');
    // kutt@3.0.2 types `address` as required; Kutt's API (and ShareX) send any subset.
    await kutt
      .links()
      .update(asKutt.id, { target: 'https://example.com/third' } as Parameters<
        ReturnType<Kutt['links']>['update']
      >[1]);
    assert.equal(
      (await shlink.getShortUrl({ shortCode: 'one-link' })).longUrl,
      'https://example.com/third',
    );

    // YOURLS expands it to the edit; a redirect goes there too.
    const expanded = await yourls({ action: 'expand', shorturl: 'one-link' });
    assert.equal(expanded.status, 200);
    assert.equal(expanded.body['longurl'], 'https://example.com/third');
    const redirect = await fetch(`${server.url}/one-link`, { redirect: 'manual' });
    assert.equal(redirect.headers.get('location'), 'https://example.com/third');

    // Deleted through Kutt: gone for Shlink, YOURLS and /v1 alike.
    await kutt.links().remove(asKutt.id);
    await assert.rejects(shlink.getShortUrl({ shortCode: 'one-link' }), (error: unknown) => {
      assert.equal((error as { status: number }).status, 404);
      return true;
    });
    assert.equal((await yourls({ action: 'expand', shorturl: 'one-link' })).status, 404);
    assert.equal((await v1('GET', `/v1/links/${id}`)).status, 404);
  });

  test('made through YOURLS: Shlink, Kutt and /v1 see its keyword, title and destination', async () => {
    const made = await yourls({
      action: 'shorturl',
      url: 'https://example.org/from-yourls',
      keyword: 'from-yourls',
      title: 'From YOURLS',
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const viaShlink = await shlink.getShortUrl({ shortCode: 'from-yourls' });
    assert.equal(viaShlink.longUrl, 'https://example.org/from-yourls');
    assert.equal(viaShlink.title, 'From YOURLS');
    const viaV1 = await v1('GET', '/v1/links/from-yourls');
    assert.equal(viaV1.status, 200);
    assert.equal(viaV1.json.destination, 'https://example.org/from-yourls');
    const listed = await kutt.links().list({ limit: 50 });
    assert.ok(
      listed.data.some((link) => link.address === 'from-yourls' && link.id === viaV1.json.id),
    );
  });
});
