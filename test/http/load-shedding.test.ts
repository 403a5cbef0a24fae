import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/test-server.js';

const MAX_IN_FLIGHT = 4;

/**
 * A create whose body never finishes arriving: it stays in flight until the socket is
 * closed, as requests do when an instance is overloaded.
 */
function stalledCreate(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        'POST /v1/links HTTP/1.1\r\nHost: hop.test\r\n' +
          `Authorization: Bearer ${TEST_ADMIN_KEY}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"destination":',
      );
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('load shedding (SPEC §7)', () => {
  let server: TestServer;
  let stored: string;
  let cached: string;
  before(async () => {
    server = await startTestServer({
      HOP_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
      HOP_KNOWN_CODES: 'off',
    });
    const create = async (destination: string) => {
      const created = await server.request('POST', '/v1/links', { body: { destination } });
      assert.equal(created.status, 201);
      return created.json as { id: string; code: string };
    };
    cached = (await create('https://example.com/cached')).code;
    stored = (await create('https://example.com/stored')).code;
    // Only in the store: a create writes through to L1, so drop it from L1 by a change.
    const link = await create('https://example.com/replaced');
    stored = link.code;
    assert.equal(
      (
        await server.request('PATCH', `/v1/links/${link.id}`, {
          body: { destination: 'https://example.com/stored' },
        })
      ).status,
      200,
    );
  });
  after(async () => {
    await server.close();
  });

  const waitForInFlight = async (count: number) => {
    const shedder = server.runtime.appDeps.protection.shedder;
    for (let i = 0; i < 200 && shedder.inFlight !== count; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(shedder.inFlight, count);
  };

  test('overloaded: creates, analytics and admin get 503 + Retry-After while redirects go on', async () => {
    const stalled = await Promise.all(
      Array.from({ length: MAX_IN_FLIGHT + 1 }, () => stalledCreate(server.url)),
    );
    try {
      await waitForInFlight(MAX_IN_FLIGHT + 1);
      const create = await server.request('POST', '/v1/links', {
        body: { destination: 'https://example.com/refused' },
      });
      assertProblem(create, 503, 'overloaded');
      assert.equal(create.headers.get('retry-after'), '2');
      assertProblem(await server.request('GET', '/v1/links'), 503, 'overloaded');
      assertProblem(await server.request('GET', '/v1/keys'), 503, 'overloaded');
      assert.equal((await server.request('GET', '/admin', { key: null })).status, 503);

      // Redirects, from memory and from the store alike, and health checks are served.
      const fromMemory = await server.request('GET', `/${cached}`, { key: null });
      assert.equal(fromMemory.status, 302);
      const fromStore = await server.request('GET', `/${stored}`, { key: null });
      assert.equal(fromStore.status, 302);
      assert.equal(fromStore.headers.get('location'), 'https://example.com/stored');
      assert.equal((await server.request('GET', '/healthz', { key: null })).status, 200);
      const metrics = await server.request('GET', '/metrics', { key: null });
      assert.equal(metrics.status, 200);
      assert.match(metrics.text, /^hop_requests_shed_total\{kind="api"\} 4$/m);
      // The five stalled creates and this scrape itself.
      assert.match(metrics.text, /^hop_in_flight_requests 6$/m);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
    await waitForInFlight(0);
    const recovered = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/after-the-storm' },
    });
    assert.equal(recovered.status, 201);
  });

  test('past twice the bound, redirects that need a read are shed too; those in memory never', async () => {
    const stalled = await Promise.all(
      Array.from({ length: MAX_IN_FLIGHT + 1 }, () => stalledCreate(server.url)),
    );
    const shedder = server.runtime.appDeps.protection.shedder;
    try {
      await waitForInFlight(MAX_IN_FLIGHT + 1);
      // The sockets above are all level 1 lets in; the rest of the way to level 2 stands
      // for requests that would have come in before it was reached.
      shedder.inFlight += MAX_IN_FLIGHT;
      const uncached = await server.request('GET', '/Q1w2E3r', { key: null });
      assertProblem(uncached, 503, 'overloaded');
      assert.equal(uncached.headers.get('retry-after'), '2');
      assert.equal((await server.request('GET', `/${cached}`, { key: null })).status, 302);
      // Codes that cannot exist need no read: still a plain 404.
      assert.equal((await server.request('GET', '/x!', { key: null })).status, 404);
      const metrics = await server.request('GET', '/metrics', { key: null });
      assert.match(metrics.text, /^hop_requests_shed_total\{kind="redirect"\} 1$/m);
    } finally {
      shedder.inFlight -= MAX_IN_FLIGHT;
      for (const socket of stalled) socket.destroy();
    }
    await waitForInFlight(0);
    assert.equal((await server.request('GET', '/Q1w2E3r', { key: null })).status, 404);
  });
});
