import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mapConcurrently } from '../support/client-at-address.js';
import { createLink } from '../support/create-link.js';
import { setCookiePair, visit } from '../support/smart-visits.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 21's variants and query forwarding, from outside: fresh visitors drawn by weight,
 * a visitor kept on the variant first drawn by its cookie, the visitor's query added to
 * whichever destination was chosen, and utm_* set on the destination when it is written.
 */

const A = 'https://example.com/a';
const B = 'https://example.com/b';

describe('smart-link variants over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  /**
   * The variant cookie of a fresh visitor drawn to `destination`: fresh visitors until one
   * is (bounded: a 1-in-101 variant is missed 5,000 times about once in 10^21 runs).
   */
  const cookieFor = async (code: string, destination: string): Promise<string> => {
    for (let i = 0; i < 5000; i++) {
      const fresh = await visit(server, code);
      const cookie = setCookiePair(fresh, 'hop_v_');
      if (fresh.headers.get('location') === destination && cookie !== undefined) return cookie;
    }
    throw new Error(`no visitor was drawn to ${destination}`);
  };

  test('fresh visitors are drawn by weight: 80/20 over 1,000 within 7 sigma', async () => {
    const { code } = await createLink(server, {
      destination: 'https://example.com/unused',
      variants: [
        { destination: A, weight: 80 },
        { destination: B, weight: 20 },
      ],
    });
    const VISITS = 1000;
    const answers = await mapConcurrently(
      Array.from({ length: VISITS }, (_, index) => index),
      16,
      async () => {
        const response = await visit(server, code);
        assert.equal(response.status, 302);
        assert.ok(setCookiePair(response, 'hop_v_') !== undefined, 'a first draw sets the cookie');
        return response.headers.get('location');
      },
    );
    const toA = answers.filter((location) => location === A).length;
    const toB = answers.filter((location) => location === B).length;
    assert.equal(toA + toB, VISITS, 'every visit went to one of the variants');
    // Binomial(1000, 0.8): mean 800, sigma = sqrt(1000 * 0.8 * 0.2) ≈ 12.6. Seven sigma
    // either side: a correct draw falls outside about once in 10^11 runs.
    const sigma = Math.sqrt(VISITS * 0.8 * 0.2);
    assert.ok(Math.abs(toA - 800) <= 7 * sigma, `${toA} of ${VISITS} to the 80% variant`);
  });

  test('a visitor with the cookie keeps its variant; Set-Cookie only on the first draw', async () => {
    const link = await createLink(server, {
      destination: 'https://example.com/unused',
      variants: [
        { destination: A, weight: 50 },
        { destination: B, weight: 50 },
      ],
    });
    const first = await visit(server, link.code);
    assert.equal(first.status, 302);
    const drawn = first.headers.get('location');
    const cookie = setCookiePair(first, `hop_v_${link.id}=`);
    assert.ok(cookie !== undefined, first.headers.getSetCookie().join(' | '));
    const attributes = first.headers.getSetCookie()[0] ?? '';
    assert.match(attributes, new RegExp(`Path=/${link.code}(;|$)`));
    assert.match(attributes, /HttpOnly/);
    assert.match(attributes, /SameSite=Lax/);
    assert.equal(first.headers.get('cache-control'), 'private, no-store');
    for (let i = 0; i < 30; i++) {
      const again = await visit(server, link.code, { cookie: `other=1; ${cookie}` });
      assert.equal(again.headers.get('location'), drawn);
      assert.deepEqual(again.headers.getSetCookie(), [], 'no new cookie for a kept variant');
    }
    // Both variants keep their visitors: a cookie naming the other keeps that one.
    const other = drawn === A ? B : A;
    const otherCookie = await cookieFor(link.code, other);
    for (let i = 0; i < 10; i++) {
      const kept = await visit(server, link.code, { cookie: otherCookie });
      assert.equal(kept.headers.get('location'), other);
    }
    // A cookie naming no variant of this link draws again and sets a new one.
    const stale = await visit(server, link.code, { cookie: `hop_v_${link.id}=nosuch` });
    assert.ok([A, B].includes(stale.headers.get('location') ?? ''));
    assert.ok(setCookiePair(stale, `hop_v_${link.id}=`) !== undefined);
  });

  test('reweighting keeps visitors where they are; a rule that matches wins over variants', async () => {
    const link = await createLink(server, {
      destination: 'https://example.com/unused',
      rules: [{ destination: 'https://example.com/ruled', when: { query: { rule: true } } }],
      variants: [
        { destination: A, weight: 1 },
        { destination: B, weight: 100 },
      ],
    });
    const cookieForA = await cookieFor(link.code, A);
    const patched = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: {
        variants: [
          { destination: B, weight: 100 },
          { destination: A, weight: 1 },
        ],
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const kept = await visit(server, link.code, { cookie: cookieForA });
    assert.equal(kept.headers.get('location'), A);
    const ruled = await visit(server, `${link.code}?rule`, { cookie: cookieForA });
    assert.equal(ruled.headers.get('location'), 'https://example.com/ruled');
    assert.deepEqual(ruled.headers.getSetCookie(), [], 'a rule draws no variant');
  });

  test('variants shown back in the link JSON; [] removes them', async () => {
    const variants = [
      { destination: A, weight: 3 },
      { destination: B, weight: 7 },
    ];
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/plain', variants },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.variants, variants);
    const removed = await server.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { variants: [] },
    });
    assert.deepEqual(removed.json.variants, []);
    const plain = await visit(server, created.json.code);
    assert.equal(plain.headers.get('location'), 'https://example.com/plain');
    assert.deepEqual(plain.headers.getSetCookie(), []);
  });
});

describe('query forwarding and UTM over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const locationOf = async (pathAndQuery: string) =>
    (await visit(server, pathAndQuery)).headers.get('location');

  test("the visitor's query is added; the destination's own parameters keep their values", async () => {
    const { code } = await createLink(server, {
      destination: 'https://example.com/p?a=1&b=2',
      forward_query: true,
    });
    assert.equal(await locationOf(`${code}?b=9&c=3`), 'https://example.com/p?a=1&b=2&c=3');
    assert.equal(await locationOf(code), 'https://example.com/p?a=1&b=2');
    assert.equal(await locationOf(`${code}?`), 'https://example.com/p?a=1&b=2');
    assert.equal(
      await locationOf(`${code}?c=3&c=4&d=%20x`),
      'https://example.com/p?a=1&b=2&c=3&c=4&d=%20x',
    );
  });

  test('with a fragment, the fragment stays last', async () => {
    const { code } = await createLink(server, {
      destination: 'https://example.com/p?a=1&b=2#section',
      forward_query: true,
    });
    assert.equal(await locationOf(`${code}?b=9&c=3`), 'https://example.com/p?a=1&b=2&c=3#section');
    const bare = await createLink(server, {
      destination: 'https://example.com/q#top',
      forward_query: true,
    });
    assert.equal(await locationOf(`${bare.code}?x=1`), 'https://example.com/q?x=1#top');
  });

  test('without forward_query the query stays behind', async () => {
    const { code } = await createLink(server, { destination: 'https://example.com/p?a=1' });
    assert.equal(await locationOf(`${code}?b=2`), 'https://example.com/p?a=1');
  });

  test('rule and variant destinations are forwarded too', async () => {
    const { code } = await createLink(server, {
      destination: 'https://example.com/unused',
      forward_query: true,
      rules: [{ destination: 'https://example.com/r?ref=rule', when: { query: { ref: true } } }],
      variants: [
        { destination: 'https://example.com/v1?x=1', weight: 50 },
        { destination: 'https://example.com/v2?x=2', weight: 50 },
      ],
    });
    assert.equal(
      await locationOf(`${code}?ref=mail&id=7`),
      'https://example.com/r?ref=rule&id=7',
      "the rule's own ref is kept",
    );
    const variant = await locationOf(`${code}?x=9&id=7`);
    assert.ok(
      variant === 'https://example.com/v1?x=1&id=7' ||
        variant === 'https://example.com/v2?x=2&id=7',
      String(variant),
    );
  });

  test('utm fields are set on the destination at write and shown parsed back; PATCH changes them', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: {
        destination: 'https://example.com/landing?utm_source=old&keep=1',
        utm: { source: 'newsletter', medium: 'email', campaign: 'spring sale' },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(
      created.json.destination,
      'https://example.com/landing?utm_source=newsletter&keep=1&utm_medium=email&utm_campaign=spring%20sale',
    );
    assert.deepEqual(created.json.utm, {
      source: 'newsletter',
      medium: 'email',
      campaign: 'spring sale',
    });
    assert.equal(await locationOf(created.json.code), created.json.destination);

    const patched = await server.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { utm: { campaign: 'fall', medium: null, term: 'shoes' } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json.utm, { source: 'newsletter', campaign: 'fall', term: 'shoes' });
    assert.equal(
      patched.json.destination,
      'https://example.com/landing?utm_source=newsletter&keep=1&utm_campaign=fall&utm_term=shoes',
    );
    assert.equal(await locationOf(created.json.code), patched.json.destination);
    const read = await server.request('GET', `/v1/links/${created.json.id}`);
    assert.deepEqual(read.json.utm, patched.json.utm);

    const cleared = await server.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { utm: null },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.json.utm, {});
    assert.equal(cleared.json.destination, 'https://example.com/landing?keep=1');
  });
});
