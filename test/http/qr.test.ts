import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';

// jsqr's types declare an ES default export; its CommonJS module is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

describe('GET /v1/links/{id}/qr', () => {
  let server: TestServer;
  let link: { id: string; code: string; short_url: string };
  before(async () => {
    server = await startTestServer();
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/printed' },
    });
    link = created.json;
  });
  after(async () => {
    await server.close();
  });

  async function fetchQr(query: string) {
    const response = await fetch(`${server.url}/v1/links/${link.id}/qr${query}`, {
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  }

  test('PNG of the requested width that scans as the short URL', async () => {
    const { response, body } = await fetchQr('?format=png&size=300');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    const png = PNG.sync.read(body);
    assert.equal(png.width, 300);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    assert.equal(decoded?.data, `${TEST_PUBLIC_URL}/${link.code}`);
    assert.equal(decoded.data, link.short_url);
  });

  test('SVG by default, 256 wide', async () => {
    const { response, body } = await fetchQr('');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    const svg = body.toString('utf8');
    assert.match(svg, /^<svg [^>]*width="256" height="256"/);
    // Well-formed XML: an attribute given twice makes browsers refuse the image.
    const attributes = [...(/^<svg ([^>]*)>/.exec(svg)?.[1] ?? '').matchAll(/([\w:-]+)=/g)].map(
      (m) => m[1],
    );
    assert.equal(
      new Set(attributes).size,
      attributes.length,
      `duplicate attributes: ${attributes.join(' ')}`,
    );
    assert.match(svg, /<path /);
  });

  test("an unknown link, or another owner's, is a 404 problem", async () => {
    assertProblem(
      await server.request('GET', '/v1/links/01J0000000000000000000000Z/qr'),
      404,
      'not-found',
    );
    const stranger = await server.ownerKey('stranger');
    assertProblem(
      await server.request('GET', `/v1/links/${link.id}/qr`, { key: stranger }),
      404,
      'not-found',
    );
    assertProblem(await server.request('GET', `/v1/links/${link.id}/qr`, { key: null }), 401);
  });

  test('a format or size out of bounds is a 4xx problem naming it', async () => {
    for (const query of ['?format=gif', '?size=10', '?size=5000', '?size=big', '?colour=red']) {
      const response = await server.request('GET', `/v1/links/${link.id}/qr${query}`);
      assert.ok(response.status >= 400 && response.status < 500, `${query}: ${response.status}`);
      assertProblem(response, response.status);
      const named = /^\?(\w+)=/.exec(query)?.[1] ?? '';
      assert.match(JSON.stringify(response.json), new RegExp(named), `${query} names ${named}`);
    }
  });

  test('PNGs are drawn off the event loop: a redirect is answered while big ones are drawn', async () => {
    // A PNG of 2,048 pixels takes about a quarter of a second to draw; drawn on the main
    // thread, every redirect meanwhile waited for it (four of them: about a second).
    const links = [];
    for (let i = 0; i < 4; i++) {
      const created = await server.request('POST', '/v1/links', {
        body: { destination: `https://example.com/poster/${i}` },
      });
      links.push(created.json as { id: string });
    }
    const finished: string[] = [];
    const drawing = links.map(async (each, i) => {
      const response = await fetch(`${server.url}/v1/links/${each.id}/qr?format=png&size=2048`, {
        headers: { authorization: `Bearer ${server.adminKey}` },
      });
      assert.equal(response.status, 200);
      assert.equal(PNG.sync.read(Buffer.from(await response.arrayBuffer())).width, 2048);
      finished.push(`png ${i}`);
    });
    const redirect = await fetch(`${server.url}/${link.code}`, { redirect: 'manual' });
    finished.push('redirect');
    assert.equal(redirect.status, 302);
    await Promise.all(drawing);
    assert.equal(finished[0], 'redirect', `in the order ${finished.join(', ')}`);
  });
});
