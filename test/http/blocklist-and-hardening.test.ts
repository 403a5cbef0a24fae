import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../support/eventually.js';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/test-server.js';

describe('HOP_BLOCKLIST_FILE is checked at create and on redirect, and reloaded', () => {
  let server: TestServer;
  let file: string;
  before(async () => {
    // The server's data dir is made by startTestServer: the file lives beside it.
    file = join(process.env['TMPDIR'] ?? '/tmp', `hop-blocklist-${process.pid}-${Date.now()}.txt`);
    writeFileSync(file, '# spam\nevil.example\n');
    server = await startTestServer({ HOP_BLOCKLIST_FILE: file });
  });
  after(async () => {
    await server.close();
    rmSync(file, { force: true });
  });

  test('a newly blocked domain stops redirecting and stops being accepted', async () => {
    const refused = await server.request('POST', '/v1/links', {
      body: { destination: 'https://www.evil.example/x' },
    });
    assertProblem(refused, 422, 'invalid-destination');

    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://shop.good.example/sale?ref=mail' },
    });
    assert.equal(created.status, 201);
    const code = created.json.code as string;
    const before = await server.request('GET', `/${code}`, { key: null });
    assert.equal(before.status, 302);

    writeFileSync(file, '# spam\nevil.example\ngood.example\n');
    // The file is looked at once a second: a few seconds at most.
    await eventually(
      async () => (await server.request('GET', `/${code}`, { key: null })).status === 404,
      'the redirect of a newly blocked domain turning 404',
      1000,
    );
    assertProblem(
      await server.request('POST', '/v1/links', {
        body: { destination: 'https://good.example/again' },
      }),
      422,
      'invalid-destination',
    );
    const metrics = await server.request('GET', '/metrics', { key: null });
    assert.match(metrics.text, /^hop_blocked_redirects_total [1-9]\d*$/m);

    // A file that can no longer be read keeps the list it had.
    rmSync(file);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal((await server.request('GET', `/${code}`, { key: null })).status, 404);

    // Taken off the list, the link redirects again: nothing about it was changed.
    writeFileSync(file, 'evil.example\n');
    await eventually(
      async () => (await server.request('GET', `/${code}`, { key: null })).status === 302,
      'the redirect coming back once its domain is off the list',
      1000,
    );
  });

  test("an expired link's fallback_url on the list is the one 404, like a destination (ADR 0114)", async () => {
    const created = await server.request('POST', '/v1/links', {
      body: {
        destination: 'https://shop.good.example/a',
        fallback_url: 'https://later.example/x',
        ttl_seconds: 60,
      },
    });
    assert.equal(created.status, 201);
    const code = created.json.code as string;
    server.clock.advance(61_000);
    const spent = await server.request('GET', `/${code}`, { key: null });
    assert.equal(spent.status, 302);
    assert.equal(spent.headers.get('location'), 'https://later.example/x');
    writeFileSync(file, 'evil.example\nlater.example\n');
    await eventually(
      async () => (await server.request('GET', `/${code}`, { key: null })).status === 404,
      'the blocked fallback turning 404',
      1000,
    );
  });
});

describe('slow clients and security headers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_HEADERS_TIMEOUT: '1s', HOP_REQUEST_TIMEOUT: '2s' });
  });
  after(async () => {
    await server.close();
  });

  /** Sends `bytes` and never more; resolves with what the server said before closing. */
  const sendAndWait = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.write(bytes);
      });
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => {
        resolve(answer);
      });
      socket.on('error', reject);
    });

  test('a client that never finishes its headers is cut off with 408', async () => {
    const answer = await sendAndWait('GET /v1/links HTTP/1.1\r\nHost: hop.test\r\nX-Slow: ');
    assert.match(answer, /^HTTP\/1\.1 408 /);
  });

  test('a client that never finishes its body is cut off with 408', async () => {
    const answer = await sendAndWait(
      'POST /v1/links HTTP/1.1\r\nHost: hop.test\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${TEST_ADMIN_KEY}\r\n` +
        'Content-Length: 500\r\n\r\n{"destination":',
    );
    assert.match(answer, /^HTTP\/1\.1 408 /);
    // And the server is still there for everyone else.
    assert.equal((await server.request('GET', '/healthz', { key: null })).status, 200);
  });

  test('API, docs and console answers carry security headers', async () => {
    for (const path of ['/v1/links', '/openapi.json', '/docs/', '/admin', '/healthz']) {
      const response = await server.request('GET', path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', path);
    }
    const docs = await server.request('GET', '/docs/', { key: null });
    assert.match(docs.headers.get('content-security-policy') ?? '', /script-src/);
    const console = await server.request('GET', '/admin', { key: null });
    assert.match(console.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    // Over plain http there is no HSTS (browsers ignore it there anyway).
    assert.equal(docs.headers.get('strict-transport-security'), null);
  });
});

describe('HSTS when hop is served over https', () => {
  test('every API answer says so', async () => {
    const server = await startTestServer({ HOP_PUBLIC_URL: 'https://hop.example' });
    try {
      const response = await server.request('GET', '/v1/links');
      assert.equal(response.headers.get('strict-transport-security'), 'max-age=31536000');
    } finally {
      await server.close();
    }
  });
});
