import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { readMetric } from '../support/click-counts.js';
import { createLink } from '../support/create-link.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Sends the request target exactly as given (fetch would make it origin-form). */
function sendTarget(
  baseUrl: string,
  method: string,
  target: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path: target },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('the redirect', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const create = (body: Record<string, unknown>) => createLink(server, body);

  for (const status of [301, 302, 307, 308]) {
    test(`GET and HEAD answer the link's own ${status}`, async () => {
      const link = await create({
        destination: `https://example.com/${status}?a=1`,
        status_code: status,
      });
      for (const method of ['GET', 'HEAD']) {
        const response = await server.request(method, `/${link.code}`, { key: null });
        assert.equal(response.status, status);
        assert.equal(response.headers.get('location'), `https://example.com/${status}?a=1`);
        assert.equal(response.text, '');
      }
    });
  }

  test('temporary redirects are private; permanent ones have a bounded max-age', async () => {
    const temporary = await create({ destination: 'https://example.com/t', status_code: 307 });
    assert.equal(
      (await server.request('GET', `/${temporary.code}`)).headers.get('cache-control'),
      'private, no-store',
    );
    const permanent = await create({ destination: 'https://example.com/p', status_code: 301 });
    assert.equal(
      (await server.request('GET', `/${permanent.code}`)).headers.get('cache-control'),
      'public, max-age=3600',
    );
    const shortLived = await create({
      destination: 'https://example.com/s',
      status_code: 308,
      ttl_seconds: 90,
    });
    assert.equal(
      (await server.request('GET', `/${shortLived.code}`)).headers.get('cache-control'),
      'public, max-age=90',
      'never cached beyond the link life',
    );
  });

  test('unknown, disabled, expired, deleted and impossible codes get one identical 404', async () => {
    const disabled = await create({ destination: 'https://example.com/d' });
    await server.request('POST', `/v1/links/${disabled.id}/disable`);
    const deleted = await create({ destination: 'https://example.com/x' });
    await server.request('DELETE', `/v1/links/${deleted.id}`);
    const expiring = await create({ destination: 'https://example.com/e', ttl_seconds: 60 });
    assert.equal((await server.request('GET', `/${expiring.code}`)).status, 302);
    server.clock.advance(60_000);

    const paths = [
      '/Unknown1',
      `/${disabled.code}`,
      `/${deleted.code}`,
      `/${expiring.code}`,
      '/a!', // a character no code has
      `/${'x'.repeat(65)}`, // too long
      '/bad,char',
      '/caf%C3%A9',
    ];
    const responses = await Promise.all(paths.map((p) => server.request('GET', p, { key: null })));
    for (const [i, response] of responses.entries()) {
      assert.equal(response.status, 404, paths[i]);
      assert.equal(response.headers.get('location'), null);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(response.text, responses[0]!.text, `${paths[i]} answers the same body`);
    }
    const head = await server.request('HEAD', `/${disabled.code}`, { key: null });
    assert.equal(head.status, 404);
  });

  test('expiry is checked against the clock on every read, no sweeper needed', async () => {
    const link = await create({ destination: 'https://example.com/tick', ttl_seconds: 10 });
    server.clock.advance(9_999);
    assert.equal((await server.request('GET', `/${link.code}`)).status, 302);
    server.clock.advance(1);
    assert.equal((await server.request('GET', `/${link.code}`)).status, 404);
    const api = await server.request('GET', `/v1/links/${link.id}`);
    assert.equal(api.json.state, 'expired');
    const expired = await server.request('GET', '/v1/links?state=expired&limit=100');
    assert.ok(expired.json.items.some((l: { id: string }) => l.id === link.id));
  });

  test('an expired link can be given a new expiry and redirects again', async () => {
    const link = await create({ destination: 'https://example.com/revive', ttl_seconds: 5 });
    server.clock.advance(5_000);
    assert.equal((await server.request('GET', `/${link.code}`)).status, 404);
    const renewed = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { expires_at: new Date(server.clock.now() + 3_600_000).toISOString() },
    });
    assert.equal(renewed.json.state, 'active');
    assert.equal((await server.request('GET', `/${link.code}`)).status, 302);
  });

  test('Location only ever holds the normalised absolute URL', async () => {
    const link = await create({ destination: 'https://EXAMPLE.com/ä?q=ü#ö' });
    const location = (await server.request('GET', `/${link.code}`)).headers.get('location')!;
    assert.equal(location, 'https://example.com/%C3%A4?q=%C3%BC#%C3%B6');
    assert.equal(new URL(location).href, location);
  });

  test('reserved words in spellings that are no route of ours get the one 404', async () => {
    const miss = await server.request('GET', '/Unknown1', { key: null });
    const redirects = () => readMetric(server.url, 'hop_l1_requests_total{result="miss"}');
    const before = await redirects();
    for (const path of ['/Healthz', '/METRICS', '/v1', '/Docs?x=1', '/favicon.ico', '/Login']) {
      const response = await server.request('GET', path, { key: null });
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('location'), null, path);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(response.text, miss.text, `${path} answers the same body`);
      assert.equal((await server.request('HEAD', path, { key: null })).status, 404, path);
    }
    assert.equal(await redirects(), before, 'no reserved word is looked up as a code');
    assert.equal((await server.request('GET', '/healthz', { key: null })).status, 200);
  });

  test('an absolute-form request target (RFC 9112 §3.2.2) is a redirect like any other', async () => {
    const link = await create({ destination: 'https://example.com/absolute' });
    const clicks = async () =>
      ((await readMetric(server.url, 'hop_click_buffer_depth')) ?? 0) +
      ((await readMetric(server.url, 'hop_click_events_flushed_total')) ?? 0) +
      ((await readMetric(server.url, 'hop_click_events_dropped_total')) ?? 0);
    const redirects = () =>
      readMetric(server.url, 'hop_redirect_duration_seconds_count{outcome="l1"}');
    const clicksBefore = await clicks();
    const redirectsBefore = (await redirects()) ?? 0;
    const response = await sendTarget(server.url, 'GET', `http://hop.test/${link.code}?a=1`);
    assert.equal(response.status, 302);
    assert.equal(response.headers['location'], 'https://example.com/absolute');
    assert.equal(response.headers['cache-control'], 'private, no-store');
    assert.equal(response.text, '');
    assert.equal(await clicks(), clicksBefore + 1, 'its click is counted');
    assert.equal(await redirects(), redirectsBefore + 1, 'and its redirect');
    const reserved = await sendTarget(server.url, 'GET', 'http://hop.test/Healthz');
    assert.equal(reserved.status, 404);
    const miss = await server.request('GET', '/Unknown1', { key: null });
    assert.equal(reserved.text, miss.text);
  });

  test('the redirect never needs a key and ignores one that is wrong', async () => {
    const link = await create({ destination: 'https://example.com/anon' });
    const response = await server.request('GET', `/${link.code}`, {
      key: 'definitely-not-valid',
    });
    assert.equal(response.status, 302);
  });
});
