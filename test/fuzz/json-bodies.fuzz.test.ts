// npm test starts it early: a long file (scripts/run-tests.ts), not the last to end.
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import fc from 'fast-check';
import { checkDestination } from '../../src/domain/destination-policy.js';
import { LINK_SORT_NAMES } from '../../src/services/links/list-links.js';
import { assertProblem } from '../support/problem-assertions.js';
import {
  startTestServer,
  TEST_ADMIN_KEY,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';
import { budgetSpentTest, fuzzTestAsync } from './fuzz-budget.js';
import { SCOPES } from '../../src/domain/principal.js';

/**
 * ADR 0088 over real HTTP on loopback: every JSON body the API takes (and the query strings
 * of the reads) gets a 2xx, or a 4xx RFC 9457 problem whose `status` is the response's;
 * never a 5xx, never a connection dropped, never a hang (each request is given 10 s).
 * The bodies are written as JSON text, so they can hold what JSON.stringify never writes:
 * `__proto__` keys, repeated keys, numbers past a double's range.
 */

const FILE = 'json-bodies';
const REQUEST_TIMEOUT_MS = 10_000;

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** The bearer key; null for none. */
  readonly key: string | null;
}

/** The server answers `call` in time with a 2xx or a 4xx problem; returns the answer. */
async function assertAnswered(server: TestServer, call: Call): Promise<TestResponse> {
  const answer = await server.request(call.method, call.path, {
    key: call.key,
    ...(call.body === undefined ? {} : { rawBody: call.body }),
    ...(call.headers === undefined ? {} : { headers: call.headers }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (answer.status >= 200 && answer.status < 300) return answer;
  const body = call.body === undefined ? '' : JSON.stringify(call.body.slice(0, 500));
  const what = `${call.method} ${call.path} ${body} → ${answer.status} ${answer.text.slice(0, 500)}`;
  assert.ok(answer.status >= 400 && answer.status < 500, what);
  assertProblem(answer, answer.status);
  return answer;
}

// --- JSON text ----------------------------------------------------------------------------

/** Values as JSON text, including spellings JSON.stringify never produces. */
const anyJsonText = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      '1e400',
      '-1e400',
      '-0',
      '1e-400',
      '123456789012345678901234567890',
      '9007199254740993',
      '0.5',
      '-1',
      '301.0',
      '3.01e2',
      '"\\u0000"',
      '"\\ud800"',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      `${'['.repeat(2000)}${']'.repeat(2000)}`,
      `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`,
    ),
    weight: 1,
  },
);

const rfc3339 = fc
  .date({
    min: new Date('1969-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());

/** The clock of the test server stands at 2026-06-01: expiries after it are in the future. */
const futureRfc3339 = fc
  .date({
    min: new Date('2026-06-02T00:00:00Z'),
    max: new Date('2036-01-01T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());

const asJson = <T>(values: fc.Arbitrary<T>) => values.map((value) => JSON.stringify(value));

/** Each field's values as JSON text: ones the API takes, and edges of the same type. */
const FIELDS = {
  destination: {
    valid: asJson(fc.webUrl({ withQueryParameters: true, withFragments: true })),
    edge: asJson(
      fc.oneof(
        fc.constantFrom(
          'http://0x7f000001/',
          'http://[::ffff:127.0.0.1]/',
          'https://hop.test/abc',
          'https://user:pw@example.com/',
          'javascript:alert(1)',
          `https://example.com/${'é'.repeat(400)}`,
        ),
        fc.string(),
      ),
    ),
  },
  alias: {
    valid: asJson(fc.stringMatching(/^[A-Za-z0-9_-]{3,16}$/)),
    edge: asJson(
      fc.oneof(
        fc.constantFrom('admin', 'Docs', 'ab', 'a'.repeat(65), 'fuzz-taken', null),
        fc.string(),
      ),
    ),
  },
  status_code: {
    valid: asJson(fc.constantFrom(301, 302, 307, 308)),
    edge: fc.oneof(
      asJson(fc.oneof(fc.integer(), fc.double(), fc.constant(null))),
      fc.constantFrom('1e400', '302.0', '3.02e2'),
    ),
  },
  expires_at: {
    valid: asJson(futureRfc3339),
    edge: asJson(
      fc.oneof(
        rfc3339,
        fc.constantFrom('2030-02-30T00:00:00Z', '2030-01-31', '+275760-09-13T00:00:00Z', null),
      ),
    ),
  },
  ttl_seconds: {
    valid: asJson(fc.integer({ min: 1, max: 300_000_000 })),
    edge: fc.oneof(
      asJson(fc.oneof(fc.integer(), fc.constantFrom(0, 2 ** 53 - 1, 2 ** 53 + 2, 1.5, null))),
      fc.constantFrom('1e400', '1e21', '-0', '1.0'),
    ),
  },
  title: {
    valid: asJson(fc.string({ maxLength: 100 })),
    edge: asJson(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ minLength: 195, maxLength: 205 }),
        fc.constant(null),
      ),
    ),
  },
  preview: {
    valid: asJson(
      fc.option(
        fc.record(
          {
            title: fc.option(fc.string({ maxLength: 60 })),
            description: fc.option(fc.string({ maxLength: 200 })),
            image: fc.option(fc.constantFrom('https://img.example/a.png', 'http://cdn.example/b')),
          },
          { requiredKeys: [] },
        ),
      ),
    ),
    edge: asJson(
      fc.oneof(
        fc.record(
          {
            title: fc.oneof(fc.string({ minLength: 195, maxLength: 205 }), fc.integer()),
            description: fc.oneof(fc.string({ unit: 'binary' }), fc.constant([])),
            image: fc.oneof(
              fc.webUrl(),
              fc.string(),
              fc.constantFrom('javascript:alert(1)', 'http://127.0.0.1/a.png', '/a.png', 'data:,x'),
            ),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom('card', [], { colour: 'red' }),
      ),
    ),
  },
  crawlable: {
    valid: asJson(fc.boolean()),
    edge: asJson(fc.constantFrom(null, 0, 1, 'true')),
  },
  tags: {
    valid: asJson(fc.array(fc.stringMatching(/^[a-z0-9_.:-]{1,10}$/), { maxLength: 5 })),
    edge: asJson(
      fc.oneof(fc.array(fc.string(), { maxLength: 25 }), fc.constant(['a|b', 'ü', 'x'.repeat(65)])),
    ),
  },
  owner: {
    valid: asJson(fc.stringMatching(/^[A-Za-z0-9_.@:-]{1,40}$/)),
    edge: asJson(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ minLength: 120, maxLength: 140 }),
        fc.constant(''),
      ),
    ),
  },
  admin: { valid: asJson(fc.boolean()), edge: asJson(fc.constantFrom(null, 0, 1, 'true')) },
  name: {
    valid: asJson(fc.string({ minLength: 1, maxLength: 40 })),
    edge: asJson(fc.oneof(fc.string({ unit: 'binary' }), fc.constant(' '), fc.constant(null))),
  },
  scopes: {
    valid: asJson(fc.subarray([...SCOPES], { minLength: 1 })),
    edge: asJson(fc.oneof(fc.array(fc.string(), { maxLength: 8 }), fc.constant('links:read'))),
  },
  domains: {
    valid: asJson(fc.constant(['hop.test'])),
    edge: asJson(
      fc.oneof(
        fc.array(fc.oneof(fc.domain(), fc.string({ unit: 'binary' })), { maxLength: 4 }),
        fc.constant(['hop.test:80', '[::1]', '']),
      ),
    ),
  },
  key: {
    valid: asJson(fc.constantFrom(TEST_ADMIN_KEY, `${TEST_ADMIN_KEY}x`)),
    edge: asJson(
      fc.oneof(
        fc.string({ unit: 'grapheme-ascii' }),
        fc.string({ minLength: 500, maxLength: 520 }),
      ),
    ),
  },
} as const;

type FieldName = keyof typeof FIELDS;

/** Keys a body must not be able to use to reach an object's prototype, or to confuse a check. */
const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
);

const objectOf = (entries: readonly (readonly [string, string])[]) =>
  `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;

/**
 * A body as JSON text, in three strengths, so that all of the API's paths are walked and
 * not only its schema's refusals: valid fields only (mostly created); fields at their
 * edges (mostly refused by the domain rules); and chaos: any JSON in any field, prototype
 * keys, repeated keys, bodies that are not objects or not JSON at all.
 */
function bodyText(
  required: readonly FieldName[],
  optional: readonly FieldName[],
): fc.Arbitrary<string> {
  const fields = (strength: 'valid' | 'edge' | 'chaos') =>
    fc
      .tuple(
        fc.tuple(...required.map((name) => value(name, strength).map((v) => [name, v] as const))),
        fc
          .subarray([...optional])
          .chain((names) =>
            fc.tuple(...names.map((name) => value(name, strength).map((v) => [name, v] as const))),
          ),
      )
      .map(([must, may]) => [...must, ...may]);
  const value = (name: FieldName, strength: 'valid' | 'edge' | 'chaos'): fc.Arbitrary<string> => {
    const { valid, edge } = FIELDS[name];
    if (strength === 'valid') return valid;
    if (strength === 'edge')
      return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: edge, weight: 1 });
    return fc.oneof(valid, edge, anyJsonText);
  };
  const chaos = fc
    .tuple(
      fields('chaos'),
      fc.array(
        fc.tuple(
          fc.oneof(hostileKey, fc.string(), fc.constantFrom(...required, ...optional)),
          anyJsonText,
        ),
        { maxLength: 2 },
      ),
      fc.nat(),
    )
    .map(([entries, extra, at]) => {
      const all: (readonly [string, string])[] = [...entries];
      all.splice(at % (all.length + 1), 0, ...extra);
      return objectOf(all);
    });
  return fc.oneof(
    { arbitrary: fields('valid').map(objectOf), weight: 4 },
    { arbitrary: fields('edge').map(objectOf), weight: 4 },
    { arbitrary: chaos, weight: 3 },
    { arbitrary: anyJsonText, weight: 1 },
    {
      arbitrary: fc.oneof(
        { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 30 },
        // Past Fastify's 1 MiB body limit: a 413 problem, not a dropped connection.
        { arbitrary: fc.constant(`{"title":"${'a'.repeat(1_100_000)}"}`), weight: 1 },
      ),
      weight: 1,
    },
  );
}

const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'Application/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    ),
    weight: 1,
  },
);

// --- query strings ------------------------------------------------------------------------

/** Base64url of JSON: what a cursor looks like, holding anything. */
const cursorLike = fc
  .oneof(
    fc.record({ before: fc.oneof(fc.string(), fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/)) }),
    // A sorted list's cursor (ADR 0097), its value and id anything.
    fc.record({
      sort: fc.constantFrom(...LINK_SORT_NAMES),
      value: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      id: fc.oneof(fc.string(), fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/)),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map((value) => Buffer.from(JSON.stringify(value) ?? '').toString('base64url'));

const queryValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom('', '0', '-1', '1e3', '101', '100', 'NaN', 'true', '%zz', '%', '%E0%A4%A'),
  fc.constantFrom(...LINK_SORT_NAMES),
  rfc3339,
  cursorLike,
);

/** A query string of `names` (and strangers), each part percent-encoded or left raw. */
function queryString(names: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(
      fc.tuple(
        fc.oneof(
          { arbitrary: fc.constantFrom(...names), weight: 6 },
          { arbitrary: fc.string(), weight: 1 },
        ),
        values,
        fc.boolean(),
      ),
      { maxLength: names.length + 1 },
    )
    .map((parts) =>
      parts.length === 0
        ? ''
        : `?${parts
            .map(([name, value, raw]) =>
              raw
                ? `${name}=${value}`.replace(/[#\s]/g, encodeURIComponent)
                : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
            )
            .join('&')}`,
    );
}

type KeyChoice = 'admin' | 'owner' | 'none' | 'wrong';

describe('fuzz: JSON bodies and query strings over HTTP (SPEC §7)', () => {
  let server: TestServer;
  let ownerKey: string;
  let linkId: string;
  before(async () => {
    server = await startTestServer();
    ownerKey = await server.ownerKey('fuzz-owner');
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/fuzz', alias: 'fuzz-taken', tags: ['fuzz'] },
    });
    assert.equal(created.status, 201, created.text);
    linkId = created.json.id as string;
  });
  after(async () => {
    await server.close();
  });

  /** Who sends the request: the admin mostly, sometimes an owner, nobody, or a wrong key. */
  const key = () =>
    fc.oneof(
      { arbitrary: fc.constant<KeyChoice>('admin'), weight: 8 },
      { arbitrary: fc.constantFrom<KeyChoice>('owner', 'none', 'wrong'), weight: 1 },
    );
  const keyOf = (which: KeyChoice): string | null =>
    ({ admin: TEST_ADMIN_KEY, owner: ownerKey, none: null, wrong: 'hop_not_a_key' })[which];
  const linkIdOrNot = fc.oneof(
    { arbitrary: fc.constant<string | null>(null), weight: 4 },
    { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
  );
  const idPath = (id: string | null) => encodeURIComponent(id ?? linkId);

  fuzzTestAsync(
    FILE,
    'POST /v1/links',
    fc.record({
      body: bodyText(
        ['destination'],
        [
          'alias',
          'status_code',
          'expires_at',
          'ttl_seconds',
          'title',
          'tags',
          'preview',
          'crawlable',
        ],
      ),
      contentType,
      key: key(),
      idempotencyKey: fc.option(fc.string({ unit: 'grapheme-ascii', maxLength: 140 }), { freq: 8 }),
    }),
    async ({ body, contentType: type, key: which, idempotencyKey }) => {
      const headers: Record<string, string> = { 'content-type': type };
      if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
      const answer = await assertAnswered(server, {
        method: 'POST',
        path: '/v1/links',
        body,
        headers,
        key: keyOf(which),
      });
      if (answer.status === 200 || answer.status === 201) {
        // Whatever the body, nothing the policy refuses is ever stored.
        const { destination } = answer.json as { destination: string };
        const verdict = checkDestination(destination, server.runtime.linkService.destinationPolicy);
        assert.ok(verdict.ok, `stored ${destination}`);
      }
    },
  );

  fuzzTestAsync(
    FILE,
    'PATCH /v1/links/{id}',
    fc.record({
      id: linkIdOrNot,
      body: bodyText(
        [],
        ['destination', 'status_code', 'expires_at', 'title', 'tags', 'preview', 'crawlable'],
      ),
      contentType,
      key: key(),
    }),
    async ({ id, body, contentType: type, key: which }) => {
      await assertAnswered(server, {
        method: 'PATCH',
        path: `/v1/links/${idPath(id)}`,
        body,
        headers: { 'content-type': type },
        key: keyOf(which),
      });
    },
  );

  fuzzTestAsync(
    FILE,
    'POST /v1/keys',
    fc.record({
      body: bodyText(['owner'], ['admin', 'name', 'scopes', 'domains', 'expires_at']),
      contentType,
      key: key(),
    }),
    async ({ body, contentType: type, key: which }) => {
      await assertAnswered(server, {
        method: 'POST',
        path: '/v1/keys',
        body,
        headers: { 'content-type': type },
        key: keyOf(which),
      });
    },
  );

  fuzzTestAsync(
    FILE,
    'POST /admin/session',
    fc.record({ body: bodyText(['key'], []), contentType }),
    async ({ body, contentType: type }) => {
      await assertAnswered(server, {
        method: 'POST',
        path: '/admin/session',
        body,
        headers: { 'content-type': type },
        key: null,
      });
    },
  );

  fuzzTestAsync(
    FILE,
    'GET /v1/links query strings',
    fc.record({
      query: queryString(['q', 'state', 'tag', 'owner', 'limit', 'cursor', 'sort'], queryValue),
      key: key(),
    }),
    async ({ query, key: which }) => {
      await assertAnswered(server, { method: 'GET', path: `/v1/links${query}`, key: keyOf(which) });
    },
  );

  fuzzTestAsync(
    FILE,
    'GET /v1/links/{id}/analytics and /qr query strings',
    fc.oneof(
      fc.record({
        route: fc.constant('analytics'),
        id: linkIdOrNot,
        query: queryString(
          ['from', 'to', 'bucket'],
          fc.oneof(queryValue, fc.constantFrom('hour', 'day')),
        ),
        key: key(),
      }),
      fc.record({
        route: fc.constant('qr'),
        id: linkIdOrNot,
        query: queryString(
          ['format', 'size'],
          fc.oneof(queryValue, fc.constantFrom('svg', 'png', '64', '2048', '63', '2049')),
        ),
        key: key(),
      }),
    ),
    async ({ route, id, query, key: which }) => {
      await assertAnswered(server, {
        method: 'GET',
        path: `/v1/links/${idPath(id)}/${route}${query}`,
        key: keyOf(which),
      });
    },
  );

  budgetSpentTest(FILE);
});
