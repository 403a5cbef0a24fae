import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLink } from '../support/create-link.js';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 21: a bad smart-link field is a 422 problem naming the exact field, by a path such
 * as `rules[2].when.country[0]`, on create and on PATCH alike; never a 500.
 */

const DESTINATION = 'https://example.com/x';
const GOOD_RULE = { destination: DESTINATION, when: { country: ['DE'] } };
const GOOD_VARIANT = { destination: DESTINATION, weight: 10 };

/** [what, the smart fields of the body, the field the problem must name]. */
const BAD_FIELDS: [string, Record<string, unknown>, string][] = [
  [
    'a country that is no code, in the third rule',
    { rules: [GOOD_RULE, GOOD_RULE, { destination: DESTINATION, when: { country: ['Germany'] } }] },
    'rules[2].when.country[0]',
  ],
  [
    'a weight of 0',
    { variants: [GOOD_VARIANT, { destination: DESTINATION, weight: 0 }] },
    'variants[1].weight',
  ],
  [
    'a weight of 101',
    { variants: [GOOD_VARIANT, { destination: DESTINATION, weight: 101 }] },
    'variants[1].weight',
  ],
  ['one variant', { variants: [GOOD_VARIANT] }, 'variants'],
  ['eleven variants', { variants: Array.from({ length: 11 }, () => GOOD_VARIANT) }, 'variants'],
  ['21 rules', { rules: Array.from({ length: 21 }, () => GOOD_RULE) }, 'rules'],
  ['max_clicks 0', { max_clicks: 0 }, 'max_clicks'],
  ['max_clicks 1.5', { max_clicks: 1.5 }, 'max_clicks'],
  ['a password of 3 characters', { password: 'abc' }, 'password'],
  ['a password of 129 characters', { password: 'p'.repeat(129) }, 'password'],
  ['a javascript: fallback_url', { fallback_url: 'javascript:alert(1)' }, 'fallback_url'],
  ['a relative fallback_url', { fallback_url: '/elsewhere' }, 'fallback_url'],
  ['utm.source of 201 characters', { utm: { source: 's'.repeat(201) } }, 'utm.source'],
  ['an empty utm.campaign', { utm: { campaign: '' } }, 'utm.campaign'],
  ['an unknown utm key', { utm: { sauce: 'x' } }, 'utm.sauce'],
  [
    'an unknown `when` key',
    { rules: [{ destination: DESTINATION, when: { planet: ['mars'] } }] },
    'rules[0].when.planet',
  ],
  ['an empty `when`', { rules: [{ destination: DESTINATION, when: {} }] }, 'rules[0].when'],
  ['a rule without `when`', { rules: [{ destination: DESTINATION }] }, 'rules[0].when'],
  [
    'a rule destination that is no URL',
    { rules: [{ destination: 'ftp://example.com', when: { country: ['DE'] } }] },
    'rules[0].destination',
  ],
  [
    'a rule status code of 303',
    { rules: [{ ...GOOD_RULE, status_code: 303 }] },
    'rules[0].status_code',
  ],
  [
    'a device no rule knows',
    { rules: [GOOD_RULE, { destination: DESTINATION, when: { device: ['mobile', 'phone'] } }] },
    'rules[1].when.device[1]',
  ],
  [
    'an os no rule knows',
    { rules: [{ destination: DESTINATION, when: { os: ['beos'] } }] },
    'rules[0].when.os[0]',
  ],
  [
    'a browser no rule knows',
    { rules: [{ destination: DESTINATION, when: { browser: ['netscape'] } }] },
    'rules[0].when.browser[0]',
  ],
  [
    'a language that is no tag',
    { rules: [{ destination: DESTINATION, when: { language: ['de_DE!'] } }] },
    'rules[0].when.language[0]',
  ],
  [
    'an address that is none',
    { rules: [{ destination: DESTINATION, when: { ip: ['10.0.0.0/8', '300.1.1.1'] } }] },
    'rules[0].when.ip[1]',
  ],
  [
    'an IPv6 prefix too long',
    { rules: [{ destination: DESTINATION, when: { ip: ['2001:db8::/129'] } }] },
    'rules[0].when.ip[0]',
  ],
  [
    'an empty country list',
    { rules: [{ destination: DESTINATION, when: { country: [] } }] },
    'rules[0].when.country',
  ],
  [
    'an empty query condition',
    { rules: [{ destination: DESTINATION, when: { query: {} } }] },
    'rules[0].when.query',
  ],
  [
    'a query value that is a number',
    { rules: [{ destination: DESTINATION, when: { query: { page: 2 } } }] },
    'rules[0].when.query.page',
  ],
  [
    'an after that is no date-time',
    { rules: [{ destination: DESTINATION, when: { after: 'tomorrow' } }] },
    'rules[0].when.after',
  ],
  [
    'a before not later than after',
    {
      rules: [
        {
          destination: DESTINATION,
          when: { after: '2026-12-24T18:00:00Z', before: '2026-12-24T17:00:00Z' },
        },
      ],
    },
    'rules[0].when.before',
  ],
  ['forward_query that is no boolean', { forward_query: 'yes' }, 'forward_query'],
];

describe('smart-link fields that are wrong', () => {
  let server: TestServer;
  let existing: { id: string };
  before(async () => {
    server = await startTestServer();
    existing = await createLink(server, { destination: DESTINATION });
  });
  after(async () => {
    await server.close();
  });

  const assertNames = (
    response: Awaited<ReturnType<TestServer['request']>>,
    field: string,
    what: string,
  ) => {
    assertProblem(response, 422);
    const fields = (response.json.errors ?? []).map((error: { field: string }) => error.field);
    assert.ok(fields.includes(field), `${what}: expected ${field} among ${JSON.stringify(fields)}`);
  };

  for (const [what, fields, field] of BAD_FIELDS) {
    test(`${what}: 422 naming ${field}, on create and on PATCH`, async () => {
      const created = await server.request('POST', '/v1/links', {
        body: { destination: DESTINATION, ...fields },
      });
      assertNames(created, field, what);
      const patched = await server.request('PATCH', `/v1/links/${existing.id}`, { body: fields });
      assertNames(patched, field, what);
    });
  }

  test('every problem the smart fields have is named at once', async () => {
    const response = await server.request('POST', '/v1/links', {
      body: {
        destination: DESTINATION,
        rules: [{ destination: DESTINATION, when: { country: ['DE', 'nope'] } }],
        utm: { source: 's'.repeat(201) },
        password: 'abc',
      },
    });
    assertProblem(response, 422);
    const fields = response.json.errors.map((error: { field: string }) => error.field).sort();
    assert.deepEqual(fields, ['password', 'rules[0].when.country[1]', 'utm.source']);
  });

  test('UTM parameters that take the destination past HOP_MAX_URL_LENGTH are a 422 naming it', async () => {
    const long = `${DESTINATION}?q=${'x'.repeat(1900)}`;
    const utm = { source: 's'.repeat(200), campaign: 'c'.repeat(200) };
    const created = await server.request('POST', '/v1/links', {
      body: { destination: long, utm },
    });
    assertNames(created, 'destination', 'utm past the length limit');
    const plain = await createLink(server, { destination: long });
    const patched = await server.request('PATCH', `/v1/links/${plain.id}`, { body: { utm } });
    assertNames(patched, 'destination', 'utm past the length limit, by PATCH');
  });

  test('forward_query: null turns forwarding off, as null removes the other fields', async () => {
    const link = await createLink(server, { destination: DESTINATION, forward_query: true });
    const patched = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { forward_query: null },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.json.forward_query, false);
  });

  test('nothing is written by a refused write', async () => {
    const link = await createLink(server, { destination: DESTINATION, max_clicks: 5 });
    const refused = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { max_clicks: 7, password: 'abc' },
    });
    assertProblem(refused, 422);
    const read = await server.request('GET', `/v1/links/${link.id}`);
    assert.equal(read.json.max_clicks, 5);
    assert.equal(read.json.password_protected, false);
    assert.equal(read.json.version, 1);
  });

  test('odd shapes are 422s, never 500s', async () => {
    const shapes: Record<string, unknown>[] = [
      { rules: 'all' },
      { rules: [null] },
      { rules: [[]] },
      { rules: [{ destination: DESTINATION, when: [] }] },
      { rules: [{ destination: DESTINATION, when: { country: 'DE' } }] },
      { rules: [{ destination: DESTINATION, when: { country: [null] } }] },
      { rules: [{ destination: DESTINATION, when: { query: { __proto__: 1 } } }] },
      { rules: [{ destination: DESTINATION, when: { query: { '': 'x' } } }] },
      { rules: [{ destination: DESTINATION, when: { after: 12 } }] },
      { rules: [{ destination: DESTINATION, when: { ip: ['::ffff:1.2.3.4/200'] } }] },
      { rules: [{ destination: DESTINATION, extra: 1, when: { country: ['DE'] } }] },
      { variants: [1, 2] },
      { variants: {} },
      { variants: [GOOD_VARIANT, { destination: DESTINATION }] },
      { variants: [GOOD_VARIANT, { destination: DESTINATION, weight: '10' }] },
      { utm: [] },
      { utm: 'x' },
      { utm: { source: 7 } },
      { utm: { source: 'a\u0000b' } },
      { password: 1234 },
      { password: '' },
      { max_clicks: '10' },
      { max_clicks: -1 },
      { max_clicks: 1e20 },
      { fallback_url: 5 },
      { fallback_url: '' },
      { forward_query: 0 },
    ];
    for (const shape of shapes) {
      const created = await server.request('POST', '/v1/links', {
        body: { destination: DESTINATION, ...shape },
      });
      assert.equal(created.status, 422, `${JSON.stringify(shape)}: ${created.text}`);
      const patched = await server.request('PATCH', `/v1/links/${existing.id}`, { body: shape });
      assert.equal(patched.status, 422, `PATCH ${JSON.stringify(shape)}: ${patched.text}`);
    }
  });
});
