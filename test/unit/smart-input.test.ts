import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HopError } from '../../src/domain/errors.js';
import { applySmartInput } from '../../src/domain/smart/apply-smart-input.js';
import {
  checkUrlByPolicy,
  parseSmartInput,
  readSmartInput,
  type CheckUrl,
} from '../../src/domain/smart/parse-smart-input.js';
import { parseRfc3339 } from '../../src/domain/smart/rfc3339.js';
import { smartOptionsJson } from '../../src/domain/smart/smart-options-json.js';
import { NO_SMART_OPTIONS, type SmartOptions } from '../../src/domain/smart/smart-options.js';

/** Issue 21: smart-link input is checked whole; each problem names its field in brackets. */

const checkUrl: CheckUrl = checkUrlByPolicy({
  maxLength: 2048,
  ownHosts: ['hop.example'],
  blockedDomains: new Set(['evil.example']),
});

/** The field paths of every problem `body` has (none: []). */
function fieldsOf(body: Record<string, unknown>): string[] {
  return readSmartInput(body, checkUrl).problems.map((problem) => problem.field);
}

function withRule(rule: unknown): Record<string, unknown> {
  return { rules: [rule] };
}

function withWhen(when: unknown): Record<string, unknown> {
  return withRule({ destination: 'https://example.com/', when });
}

describe('valid input, normalised', () => {
  test('a rule with every condition', () => {
    const input = parseSmartInput(
      {
        rules: [
          {
            destination: 'https://Example.com/de',
            status_code: 307,
            when: {
              device: ['mobile', 'tablet'],
              os: ['ios'],
              browser: ['safari'],
              language: ['de', 'pt-BR'],
              country: ['at', 'DE'],
              query: { ref: 'mail', beta: true },
              ip: ['192.0.2.0/24', '::ffff:198.51.100.7', '2001:DB8::/32'],
              after: '2026-12-24T18:00:00+01:00',
              before: '2026-12-26T00:00:00Z',
            },
          },
        ],
      },
      checkUrl,
    );
    assert.deepEqual(input.rules, [
      {
        destination: 'https://example.com/de',
        statusCode: 307,
        when: {
          device: ['mobile', 'tablet'],
          os: ['ios'],
          browser: ['safari'],
          language: ['de', 'pt-br'],
          country: ['AT', 'DE'],
          query: { ref: 'mail', beta: true },
          ip: ['192.0.2.0/24', '198.51.100.7', '2001:db8::/32'],
          after: Date.parse('2026-12-24T17:00:00Z'),
          before: Date.parse('2026-12-26T00:00:00Z'),
        },
      },
    ]);
  });

  test('fields absent stay absent; null clears', () => {
    assert.deepEqual(parseSmartInput({}, checkUrl), {});
    assert.deepEqual(
      parseSmartInput(
        { rules: null, variants: null, max_clicks: null, fallback_url: null, password: null },
        checkUrl,
      ),
      { rules: [], variants: [], maxClicks: null, fallbackUrl: null, password: null },
    );
  });

  test('variants, limits, fallback, forwarding, password and utm', () => {
    const input = parseSmartInput(
      {
        variants: [
          { destination: 'https://example.com/a', weight: 1 },
          { destination: 'https://example.com/b', weight: 100 },
        ],
        max_clicks: 1_000_000_000,
        fallback_url: 'https://example.com/over',
        forward_query: true,
        password: '🔑🔑🔑🔑',
        utm: { source: 'news letter', campaign: null },
      },
      checkUrl,
    );
    assert.deepEqual(input, {
      variants: [
        { destination: 'https://example.com/a', weight: 1 },
        { destination: 'https://example.com/b', weight: 100 },
      ],
      maxClicks: 1_000_000_000,
      fallbackUrl: 'https://example.com/over',
      forwardQuery: true,
      password: '🔑🔑🔑🔑',
      utm: { source: 'news letter', campaign: null },
    });
  });

  test('utm: null removes all five; an empty variant list means none', () => {
    const input = parseSmartInput({ utm: null, variants: [] }, checkUrl);
    assert.deepEqual(input.utm, {
      source: null,
      medium: null,
      campaign: null,
      term: null,
      content: null,
    });
    assert.deepEqual(input.variants, []);
  });
});

describe('every problem names its field', () => {
  const cases: readonly [string, Record<string, unknown>, readonly string[]][] = [
    ['rules not a list', { rules: {} }, ['rules']],
    ['21 rules', { rules: Array.from({ length: 21 }, () => ({})) }, ['rules']],
    ['a rule not an object', { rules: [1] }, ['rules[0]']],
    [
      'an unknown rule key',
      withRule({ destination: 'https://example.com/', when: { country: ['DE'] }, to: 1 }),
      ['rules[0].to'],
    ],
    [
      'a rule without destination',
      withRule({ when: { country: ['DE'] } }),
      ['rules[0].destination'],
    ],
    [
      'a rule destination the policy refuses',
      withRule({ destination: 'http://127.0.0.1/', when: { country: ['DE'] } }),
      ['rules[0].destination'],
    ],
    [
      'a blocked rule destination',
      withRule({ destination: 'https://evil.example/', when: { country: ['DE'] } }),
      ['rules[0].destination'],
    ],
    [
      'a bad status code',
      withRule({
        destination: 'https://example.com/',
        status_code: 303,
        when: { country: ['DE'] },
      }),
      ['rules[0].status_code'],
    ],
    ['a rule without when', withRule({ destination: 'https://example.com/' }), ['rules[0].when']],
    ['an empty when', withWhen({}), ['rules[0].when']],
    ['an unknown condition', withWhen({ country: ['DE'], city: ['Wien'] }), ['rules[0].when.city']],
    ['an empty list', withWhen({ country: [] }), ['rules[0].when.country']],
    ['not a list', withWhen({ country: 'DE' }), ['rules[0].when.country']],
    [
      '51 values',
      withWhen({ country: Array.from({ length: 51 }, () => 'DE') }),
      ['rules[0].when.country'],
    ],
    ['a bad device', withWhen({ device: ['mobile', 'phone'] }), ['rules[0].when.device[1]']],
    ['a bad os', withWhen({ os: ['iOS'] }), ['rules[0].when.os[0]']],
    ['a bad browser', withWhen({ browser: ['chrome', 'ie'] }), ['rules[0].when.browser[1]']],
    [
      'a bad language',
      withWhen({ language: ['de', 'de_AT', '*', 'x'.repeat(9)] }),
      ['rules[0].when.language[1]', 'rules[0].when.language[2]', 'rules[0].when.language[3]'],
    ],
    [
      'bad countries',
      withWhen({ country: ['DE', 'DEU', 'XX', 'd1', 7] }),
      [
        'rules[0].when.country[1]',
        'rules[0].when.country[2]',
        'rules[0].when.country[3]',
        'rules[0].when.country[4]',
      ],
    ],
    ['an empty query', withWhen({ query: {} }), ['rules[0].when.query']],
    ['a query list', withWhen({ query: ['a'] }), ['rules[0].when.query']],
    [
      '21 query parameters',
      withWhen({
        query: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, true])),
      }),
      ['rules[0].when.query'],
    ],
    [
      'bad query values',
      withWhen({ query: { a: false, b: 1, c: 'x'.repeat(501), 'odd name': null } }),
      [
        'rules[0].when.query.a',
        'rules[0].when.query.b',
        'rules[0].when.query.c',
        'rules[0].when.query["odd name"]',
      ],
    ],
    [
      'a bad query name',
      withWhen({ query: { '': 'x', ['n'.repeat(101)]: 'x' } }),
      ['rules[0].when.query[""]', `rules[0].when.query.${'n'.repeat(101)}`],
    ],
    [
      'bad ips',
      withWhen({
        ip: [
          '10.0.0.0/8',
          '10.0.0.0/33',
          '10.1',
          '0x0a.0.0.1',
          'fe80::1%eth0',
          '::ffff:10.0.0.0/64',
          '2001:db8::/129',
          'x',
          '10.0.0.0/08',
        ],
      }),
      [
        'rules[0].when.ip[1]',
        'rules[0].when.ip[2]',
        'rules[0].when.ip[3]',
        'rules[0].when.ip[4]',
        'rules[0].when.ip[5]',
        'rules[0].when.ip[6]',
        'rules[0].when.ip[7]',
        'rules[0].when.ip[8]',
      ],
    ],
    [
      'bad instants',
      withWhen({ after: '2026-12-24', before: 1 }),
      ['rules[0].when.after', 'rules[0].when.before'],
    ],
    [
      'after not before before',
      withWhen({ after: '2026-12-24T00:00:00Z', before: '2026-12-24T00:00:00Z' }),
      ['rules[0].when.before'],
    ],
    [
      'variants: one',
      { variants: [{ destination: 'https://example.com/', weight: 1 }] },
      ['variants'],
    ],
    [
      'variants: eleven',
      {
        variants: Array.from({ length: 11 }, () => ({
          destination: 'https://example.com/',
          weight: 1,
        })),
      },
      ['variants'],
    ],
    ['variants: not a list', { variants: 'a' }, ['variants']],
    [
      'bad variants',
      {
        variants: [
          { destination: 'https://example.com/', weight: 0 },
          { destination: 'ftp://example.com/', weight: 1.5 },
          3,
          { destination: 'https://example.com/', weight: 101, x: 1 },
        ],
      },
      [
        'variants[0].weight',
        'variants[1].destination',
        'variants[1].weight',
        'variants[2]',
        'variants[3].x',
        'variants[3].weight',
      ],
    ],
    ['max_clicks 0', { max_clicks: 0 }, ['max_clicks']],
    ['max_clicks 1.5', { max_clicks: 1.5 }, ['max_clicks']],
    ['max_clicks too many', { max_clicks: 1_000_000_001 }, ['max_clicks']],
    ['max_clicks a string', { max_clicks: '5' }, ['max_clicks']],
    ['a bad fallback', { fallback_url: 'javascript:alert(1)' }, ['fallback_url']],
    ['a fallback not a string', { fallback_url: 5 }, ['fallback_url']],
    ['forward_query not a boolean', { forward_query: 'yes' }, ['forward_query']],
    ['a short password', { password: 'abc' }, ['password']],
    ['a long password', { password: 'x'.repeat(129) }, ['password']],
    ['a password not a string', { password: 1234 }, ['password']],
    ['utm not an object', { utm: 'x' }, ['utm']],
    [
      'bad utm values',
      { utm: { source: '', medium: 'x'.repeat(201), campaign: 'a\nb', term: 5, id: 'x' } },
      ['utm.id', 'utm.source', 'utm.medium', 'utm.campaign', 'utm.term'],
    ],
  ];
  for (const [name, body, fields] of cases) {
    test(name, () => {
      assert.deepEqual(fieldsOf(body), fields);
    });
  }

  test('problems in several rules and fields are all reported, by index', () => {
    const body = {
      rules: [
        { destination: 'https://example.com/', when: { country: ['DE'] } },
        { destination: 'https://example.com/', when: { country: ['DE'] } },
        { destination: 'https://example.com/', when: { country: ['DE', 'Deutschland'] } },
      ],
      max_clicks: -1,
      password: '',
    };
    assert.deepEqual(fieldsOf(body), ['rules[2].when.country[1]', 'max_clicks', 'password']);
    assert.throws(
      () => parseSmartInput(body, checkUrl),
      (error: unknown) =>
        error instanceof HopError &&
        error.kind === 'invalid-request' &&
        error.fields.some((f) => f.field === 'rules[2].when.country[1]') &&
        error.fields.length === 3,
    );
  });

  test('a single problem is the error detail itself', () => {
    assert.throws(
      () => parseSmartInput({ max_clicks: 0 }, checkUrl),
      (error: unknown) => error instanceof HopError && error.detail.includes('1 to 1000000000'),
    );
  });
});

describe('any JSON', () => {
  // Seeded (the unit tier's rule): the fuzz tier would want a budget entry of its own.
  const json = fc.jsonValue({ maxDepth: 4 });
  const nearRule = fc.record(
    {
      destination: fc.oneof(json, fc.constant('https://example.com/')),
      status_code: fc.oneof(json, fc.constantFrom(301, 302, 307, 308)),
      when: fc.oneof(
        json,
        fc.dictionary(
          fc.constantFrom('device', 'os', 'language', 'country', 'query', 'ip', 'after', 'x'),
          json,
        ),
      ),
    },
    { requiredKeys: [] },
  );

  test('a list of problems or an input, never a throw', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            rules: fc.oneof(json, fc.array(nearRule, { maxLength: 4 })),
            variants: json,
            max_clicks: json,
            fallback_url: json,
            forward_query: json,
            password: json,
            utm: json,
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const { problems } = readSmartInput(body, checkUrl);
          for (const problem of problems)
            assert.ok(problem.field.length > 0 && problem.detail.length > 0);
        },
      ),
      { seed: 21, numRuns: 3_000 },
    );
  });
});

describe('applySmartInput', () => {
  const current: SmartOptions = {
    ...NO_SMART_OPTIONS,
    variants: [
      { destination: 'https://example.com/a', weight: 1 },
      { destination: 'https://example.com/b', weight: 1 },
    ],
    passwordHash: 'old',
    maxClicks: 10,
    forwardQuery: true,
  };

  test('absent fields stay, present ones replace, null clears', () => {
    const input = parseSmartInput({ max_clicks: null, rules: [] }, checkUrl);
    assert.deepEqual(applySmartInput(current, input, undefined), { ...current, maxClicks: null });
  });

  test('the password hash: undefined keeps it, null removes it, a string replaces it', () => {
    assert.equal(applySmartInput(current, {}, undefined).passwordHash, 'old');
    assert.equal(applySmartInput(current, {}, null).passwordHash, null);
    assert.equal(applySmartInput(current, {}, 'new').passwordHash, 'new');
  });
});

describe('RFC 3339', () => {
  test('accepts offsets, fractions and lower-case t/z', () => {
    assert.equal(parseRfc3339('2026-12-24T18:00:00Z'), Date.UTC(2026, 11, 24, 18));
    assert.equal(parseRfc3339('2026-12-24t18:00:00.5z'), Date.UTC(2026, 11, 24, 18, 0, 0, 500));
    assert.equal(parseRfc3339('2026-12-24T19:30:00+01:30'), Date.UTC(2026, 11, 24, 18));
    assert.equal(parseRfc3339('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29));
  });

  test('refuses what is not one', () => {
    for (const text of [
      '2026-12-24',
      '2026-12-24T18:00Z',
      '2026-12-24 18:00:00Z',
      '2026-12-24T18:00:00',
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-24T24:00:00Z',
      '2026-12-24T23:59:60Z',
      '2026-12-24T18:00:00+24:00',
      '0000-01-01T00:00:00+01:00',
      'Thu, 24 Dec 2026 18:00:00 GMT',
    ]) {
      assert.equal(parseRfc3339(text), null, text);
    }
  });
});

describe('link JSON', () => {
  const body = {
    rules: [
      {
        destination: 'https://example.com/de',
        when: {
          language: ['de'],
          country: ['AT'],
          query: { ref: 'mail', beta: true },
          after: '2026-12-24T18:00:00.123Z',
        },
      },
      {
        destination: 'https://example.com/ios',
        status_code: 301,
        when: {
          device: ['mobile'],
          os: ['ios'],
          browser: ['safari'],
          ip: ['2001:db8::/32'],
          before: '2027-01-01T00:00:00Z',
        },
      },
    ],
    variants: [
      { destination: 'https://example.com/a', weight: 30 },
      { destination: 'https://example.com/b', weight: 70 },
    ],
    max_clicks: 5,
    fallback_url: 'https://example.com/gone',
    forward_query: true,
  };

  function optionsOf(json: Record<string, unknown>, passwordHash: string | null): SmartOptions {
    return applySmartInput(NO_SMART_OPTIONS, parseSmartInput(json, checkUrl), passwordHash);
  }

  test('status_code only when set, instants as ISO strings, password only as a flag', () => {
    const json = smartOptionsJson(optionsOf(JSON.parse(JSON.stringify(body)), 'hash'));
    assert.deepEqual(json.rules[0], {
      destination: 'https://example.com/de',
      when: {
        language: ['de'],
        country: ['AT'],
        query: { ref: 'mail', beta: true },
        after: '2026-12-24T18:00:00.123Z',
      },
    });
    assert.equal(json.rules[1]?.status_code, 301);
    assert.equal(json.password_protected, true);
    assert.equal('password_hash' in json, false);
  });

  test('parse → json → parse gives the same options', () => {
    const options = optionsOf(JSON.parse(JSON.stringify(body)), null);
    const again = optionsOf(JSON.parse(JSON.stringify(smartOptionsJson(options))), null);
    assert.deepEqual(again, options);
  });

  test('a query parameter named __proto__ is a parameter like any other', () => {
    const json = JSON.parse(
      '{"rules":[{"destination":"https://example.com/","when":{"query":{"__proto__":"x"}}}]}',
    ) as Record<string, unknown>;
    const options = optionsOf(json, null);
    const query = options.rules[0]?.when.query ?? {};
    assert.deepEqual(Object.entries(query), [['__proto__', 'x']]);
    assert.equal(Object.getPrototypeOf(query), Object.prototype);
    const written = JSON.stringify(smartOptionsJson(options));
    assert.match(written, /"query":\{"__proto__":"x"\}/);
    assert.deepEqual(optionsOf(JSON.parse(written) as Record<string, unknown>, null), options);
  });

  test('a plain link has every field, empty', () => {
    assert.deepEqual(smartOptionsJson(NO_SMART_OPTIONS), {
      rules: [],
      variants: [],
      max_clicks: null,
      fallback_url: null,
      forward_query: false,
      password_protected: false,
    });
  });
});
