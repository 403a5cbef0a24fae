import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { clientAtAddress, mapConcurrently } from '../support/client-at-address.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SCANNER = '127.0.0.2';
const VISITOR = '127.0.0.3';
const THRESHOLD = 100;
const CONCURRENCY = 16;

/** Random base62-ish codes of 7 characters: what a code scanner sends. */
function randomCodes(count: number): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, () =>
    Array.from(randomBytes(7), (byte) => alphabet[byte % 62]).join(''),
  );
}

describe('scanner throttling (SPEC §7)', () => {
  let server: TestServer;
  const codes: string[] = [];
  before(async () => {
    // Without the known-codes filter every unknown code would cost a store read: the
    // throttle alone must keep the scanner's reads bounded.
    server = await startTestServer({
      HOP_SCANNER_THRESHOLD: String(THRESHOLD),
      HOP_SCANNER_WINDOW: '1m',
      HOP_SCANNER_COOLDOWN: '10m',
      HOP_KNOWN_CODES: 'off',
    });
    for (let i = 0; i < 20; i++) {
      const created = await server.request('POST', '/v1/links', {
        body: { destination: `https://example.com/visitor/${i}` },
      });
      assert.equal(created.status, 201);
      codes.push(created.json.code);
    }
  });
  after(async () => {
    await server.close();
  });

  test('a scanner of 10,000 random codes is throttled while another client redirects throughout', async () => {
    const scanner = clientAtAddress(server.url, SCANNER);
    const visitor = clientAtAddress(server.url, VISITOR);
    const resolver = server.runtime.appDeps.redirect;
    const readsBefore = resolver.stats.l1Misses;
    try {
      const visits = Array.from({ length: 2000 }, (_, i) => codes[i % codes.length] as string);
      const [scanned, visited] = await Promise.all([
        mapConcurrently(randomCodes(10_000), CONCURRENCY, (code) => scanner.get(`/${code}`)),
        mapConcurrently(visits, CONCURRENCY, (code) => visitor.get(`/${code}`)),
      ]);

      // Every one of the visitor's redirects succeeded, during the whole scan.
      assert.deepEqual(
        visited.filter((r) => r.status !== 302),
        [],
      );
      const notFound = scanned.filter((r) => r.status === 404).length;
      const throttled = scanned.filter((r) => r.status === 429);
      assert.equal(notFound + throttled.length, 10_000, 'only 404s and 429s');
      // The miss that passes the threshold trips the throttle; the requests already in
      // flight then (at most one a connection) still get their 404.
      assert.ok(notFound > THRESHOLD, `${notFound} 404s`);
      assert.ok(notFound <= THRESHOLD + 1 + CONCURRENCY, `${notFound} 404s`);
      for (const response of throttled) {
        const seconds = Number(response.retryAfter);
        assert.ok(seconds >= 1 && seconds <= 600, `Retry-After ${response.retryAfter}`);
      }
      // No read for a throttled request: only the visitor's first look at each of its 20
      // codes and the scanner's requests before the throttle went past memory.
      const reads = resolver.stats.l1Misses - readsBefore;
      assert.ok(reads <= codes.length + notFound, `${reads} reads`);

      const metrics = await server.request('GET', '/metrics');
      assert.match(metrics.text, /^hop_scanner_throttles_total 1$/m);
      assert.match(
        metrics.text,
        new RegExp(`^hop_scanner_refused_total ${throttled.length}$`, 'm'),
      );
    } finally {
      scanner.close();
      visitor.close();
    }
  });

  test('a throttled client still follows links this instance has in memory, and is let go after the cool-down', async () => {
    const scanner = clientAtAddress(server.url, SCANNER);
    try {
      // Still cooling down from the scan above.
      const cached = await scanner.get(`/${codes[0] as string}`);
      assert.equal(cached.status, 302);
      const unknown = await scanner.get('/Zz9Zz9Z');
      assert.equal(unknown.status, 429);
      // Health checks are not codes.
      assert.equal((await scanner.get('/healthz')).status, 200);

      server.clock.advance(10 * 60_000);
      assert.equal((await scanner.get('/Zz9Zz9Z')).status, 404);
      assert.equal((await scanner.get(`/${codes[1] as string}`)).status, 302);
    } finally {
      scanner.close();
    }
  });

  test('misses spread over windows never throttle', async () => {
    const slow = clientAtAddress(server.url, '127.0.0.4');
    try {
      for (let window = 0; window < 3; window++) {
        const answers = await mapConcurrently(randomCodes(THRESHOLD), 4, (code) =>
          slow.get(`/${code}`),
        );
        assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([404]));
        server.clock.advance(60_000);
      }
    } finally {
      slow.close();
    }
  });
});
