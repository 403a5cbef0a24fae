import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Sends bytes exactly as given (fetch would normalise the path), and reads the answer. */
function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<{ status: number; contentType: string; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers, insecureHTTPParser: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('hostile and malformed input gets a 4xx problem, never a 500', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const post = (rawBody: string | Buffer, contentType = 'application/json') =>
    server.request('POST', '/v1/links', { rawBody, headers: { 'content-type': contentType } });

  test('malformed JSON is 400', async () => {
    for (const body of [
      '{',
      '{"destination":',
      'nope',
      '{"a":1,}',
      "{'destination':'x'}",
      '\u0000',
    ]) {
      assertProblem(await post(body), 400, 'malformed-request');
    }
  });

  test('non-object JSON bodies are 422', async () => {
    for (const body of ['null', '42', '"https://example.com"', 'true', '[]']) {
      assertProblem(await post(body), 422, 'invalid-request');
    }
  });

  test('wrong content types are 415', async () => {
    const body = JSON.stringify({ destination: 'https://example.com/' });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'image/png',
    ]) {
      assertProblem(await post(body, type), 415, 'unsupported-media-type');
    }
  });

  test('a huge body is 413 and the server stays up', async () => {
    const huge = JSON.stringify({
      destination: 'https://example.com/',
      title: 'x'.repeat(200_000),
    });
    assertProblem(await post(huge), 413, 'payload-too-large');
    const enormous = Buffer.alloc(5 * 1024 * 1024, 0x61);
    const response = await post(enormous);
    assert.equal(response.status, 413);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });

  test('prototype poisoning is refused, not merged', async () => {
    for (const body of [
      '{"destination":"https://example.com/","__proto__":{"admin":true}}',
      '{"destination":"https://example.com/","constructor":{"prototype":{"admin":true}}}',
    ]) {
      const response = await post(body);
      assert.ok(response.status === 400 || response.status === 422, `${response.status}`);
      assert.match(response.headers.get('content-type') ?? '', /problem\+json/);
    }
  });

  test('deeply nested and oversized values are refused cleanly', async () => {
    const nested = `{"destination":"https://example.com/","tags":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const response = await post(nested);
    assert.ok(response.status >= 400 && response.status < 500, `${response.status}`);
    const manyTags = {
      destination: 'https://example.com/',
      tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
    };
    assertProblem(await server.request('POST', '/v1/links', { body: manyTags }), 422);
  });

  test('hostile paths are 4xx', async () => {
    const paths = [
      '/..%2f..%2fetc%2fpasswd',
      '/../../etc/passwd',
      '/%00',
      '/abc%00def',
      '/%ZZ',
      '/%',
      '/abc%0d%0aSet-Cookie:%20x=y',
      `/${'a'.repeat(10_000)}`,
      '//evil.example',
      '/v1/links/%00',
      '/v1/links/..%2Fkeys',
      '/v1/links/' + 'A'.repeat(500),
      '/%E2%80%AEevil',
      '/%C0%AF',
      '/v1/links/01ARZ3NDEKTSV4RRFFQ69G5FAV/%2e%2e',
      '/abc?__proto__[admin]=1',
      '/v1/links?limit=1&limit=2',
      '/v1/links?state[]=active',
    ];
    for (const path of paths) {
      const response = await rawRequest(server.url, 'GET', path, {
        authorization: `Bearer ${server.adminKey}`,
      });
      assert.ok(
        response.status >= 400 && response.status < 500,
        `${path.slice(0, 60)} answered ${response.status}`,
      );
      if (response.status !== 431) {
        assert.match(response.contentType, /problem\+json/, path.slice(0, 60));
      }
    }
    // The root is a page now (ADR 0093); a query changes nothing.
    const root = await rawRequest(server.url, 'GET', '/?code=abc');
    assert.equal(root.status, 200);
    assert.match(root.contentType, /^text\/html/);
  });

  test('over-long codes and ids are plain 404s, the redirect one with the shared body', async () => {
    const miss = await rawRequest(server.url, 'GET', '/NoSuchCode1');
    for (const length of [65, 101, 1000, 10_000]) {
      const response = await rawRequest(server.url, 'GET', `/${'a'.repeat(length)}`);
      assert.equal(response.status, 404, `length ${length}`);
      assert.equal(response.text, miss.text);
    }
    for (const length of [27, 65, 101, 5000]) {
      const response = await rawRequest(server.url, 'GET', `/v1/links/${'A'.repeat(length)}`, {
        authorization: `Bearer ${server.adminKey}`,
      });
      assert.equal(response.status, 404, `id length ${length}`);
      assert.match(response.contentType, /problem\+json/);
    }
  });

  test("requests Node's parser refuses still get a problem body", async () => {
    const url = new URL(server.url);
    const send = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const badHeader = await send('GET /abc HTTP/1.1\r\nHost: x\r\nBad Header: \x01\r\n\r\n');
    assert.match(badHeader, /^HTTP\/1\.1 400 /);
    assert.match(badHeader, /content-type: application\/problem\+json/i);
    assert.match(badHeader, /"status":400/);
    const huge = await send(`GET /abc HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.match(huge, /"status":431/);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });

  test('unknown routes and methods are 404 problems', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['PUT', '/v1/links'],
      ['DELETE', '/somecode'],
      ['GET', '/v1/links/01ARZ3NDEKTSV4RRFFQ69G5FAV/nothing'],
    ] as const) {
      const response = await rawRequest(server.url, method, path, {
        authorization: `Bearer ${server.adminKey}`,
      });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(response.contentType, /problem\+json/);
    }
    // POST /{code} is a password link's form (issue 21): a code that is none is the one 404,
    // whatever the body; only a password link reads it (smart-password.test.ts).
    for (const [headers, body] of [
      [{}, '{}'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'password=guess'],
    ] as const) {
      const response = await rawRequest(server.url, 'POST', '/somecode', headers, body);
      assert.equal(response.status, 404);
      assert.match(response.contentType, /problem\+json/);
    }
  });

  test('hostile headers are 4xx or ignored', async () => {
    const weird = await rawRequest(
      server.url,
      'POST',
      '/v1/links',
      {
        authorization: `Bearer ${server.adminKey}`,
        'content-type': 'application/json',
        'idempotency-key': '\u00ff\u00fe',
      },
      JSON.stringify({ destination: 'https://example.com/' }),
    );
    assert.equal(weird.status, 422);
    const spoofedId = await server.request('GET', '/v1/links', {
      headers: { 'x-request-id': '<script>alert(1)</script> '.repeat(10) },
    });
    assert.equal(spoofedId.status, 200);
    assert.match(spoofedId.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('after all of that the server still serves', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/still-fine' },
    });
    assert.equal(created.status, 201);
    assert.equal((await server.request('GET', `/${created.json.code}`)).status, 302);
  });
});
