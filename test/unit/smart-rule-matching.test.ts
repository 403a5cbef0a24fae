import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAcceptLanguage } from '../../src/domain/smart/accepted-languages.js';
import { compileRules, firstMatchingRule } from '../../src/domain/smart/compile-rules.js';
import type { LinkRule, RuleConditions } from '../../src/domain/smart/smart-options.js';
import { makeVisitor, type VisitorFields } from '../support/smart-visitor.js';

/** Issue 21: the first rule whose conditions all hold wins; a list holds when any value does. */

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  windowsOpera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0',
  androidSamsung:
    'Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeos:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

function rule(when: RuleConditions, destination = 'https://example.com/'): LinkRule {
  return { destination, statusCode: null, when };
}

/** True when a link with the single rule `when` sends this visitor to it. */
function matches(when: RuleConditions, visitor: VisitorFields): boolean {
  return firstMatchingRule(compileRules([rule(when)]), makeVisitor(visitor)) === 0;
}

describe('device, os and browser (bowser, memoised)', () => {
  const cases: readonly [string, string, RuleConditions][] = [
    ['iPhone', UA.iphone, { device: ['mobile'], os: ['ios'], browser: ['safari'] }],
    ['iPad', UA.ipad, { device: ['tablet'], os: ['ios'], browser: ['safari'] }],
    [
      'Windows Chrome',
      UA.windowsChrome,
      { device: ['desktop'], os: ['windows'], browser: ['chrome'] },
    ],
    ['Windows Edge', UA.windowsEdge, { device: ['desktop'], os: ['windows'], browser: ['edge'] }],
    ['Windows Opera', UA.windowsOpera, { browser: ['opera'] }],
    [
      'Samsung Internet',
      UA.androidSamsung,
      { device: ['mobile'], os: ['android'], browser: ['samsung'] },
    ],
    [
      'Android tablet',
      UA.androidTablet,
      { device: ['tablet'], os: ['android'], browser: ['chrome'] },
    ],
    ['macOS Firefox', UA.macFirefox, { device: ['desktop'], os: ['macos'], browser: ['firefox'] }],
    ['Linux Firefox', UA.linuxFirefox, { os: ['linux'], browser: ['firefox'] }],
    ['Chrome OS', UA.chromeos, { os: ['chromeos'], browser: ['chrome'] }],
  ];
  for (const [name, userAgent, when] of cases) {
    test(`${name} is classified as ${JSON.stringify(when)}`, () => {
      assert.equal(matches(when, { userAgent }), true);
    });
  }

  test('each part must hold: an iPhone is not a desktop, not Android, not Chrome', () => {
    assert.equal(matches({ device: ['desktop'] }, { userAgent: UA.iphone }), false);
    assert.equal(matches({ os: ['android'] }, { userAgent: UA.iphone }), false);
    assert.equal(matches({ browser: ['chrome'] }, { userAgent: UA.iphone }), false);
    assert.equal(matches({ device: ['mobile'], os: ['android'] }, { userAgent: UA.iphone }), false);
  });

  test('a list matches if any of its values does', () => {
    assert.equal(matches({ device: ['tablet', 'mobile'] }, { userAgent: UA.iphone }), true);
    assert.equal(
      matches({ os: ['windows', 'macos', 'linux'] }, { userAgent: UA.macFirefox }),
      true,
    );
  });

  test('no user agent, an empty one and a crawler match no device, os or browser', () => {
    for (const userAgent of [undefined, '', UA.googlebot, 'x'.repeat(600)]) {
      const visitor = userAgent === undefined ? {} : { userAgent };
      assert.equal(matches({ device: ['mobile', 'tablet', 'desktop'] }, visitor), false);
      assert.equal(matches({ browser: ['chrome'] }, visitor), false);
    }
  });
});

describe('language (Accept-Language)', () => {
  test('parsing drops q=0 entries and *, keeps the order, lower-cases', () => {
    assert.deepEqual(parseAcceptLanguage('de-AT,de;q=0.9,en;q=0.1,fr;q=0'), ['de-at', 'de', 'en']);
    assert.deepEqual(parseAcceptLanguage('*, it ; q = 0.000 , PT-br;q=0.5'), ['pt-br']);
    assert.deepEqual(parseAcceptLanguage('es;q=0.0;x=1, nl;q=0.01'), ['nl']);
    assert.deepEqual(parseAcceptLanguage(''), []);
  });

  test('de matches de-AT and de; de-at matches only de-AT and its subtags', () => {
    assert.equal(matches({ language: ['de'] }, { acceptLanguage: 'de-AT' }), true);
    assert.equal(matches({ language: ['de'] }, { acceptLanguage: 'de' }), true);
    assert.equal(matches({ language: ['de-at'] }, { acceptLanguage: 'de-AT-1996' }), true);
    assert.equal(matches({ language: ['de-at'] }, { acceptLanguage: 'de' }), false);
    assert.equal(matches({ language: ['de-at'] }, { acceptLanguage: 'de-CH' }), false);
    // A prefix of the characters is not a prefix of the tag.
    assert.equal(matches({ language: ['de'] }, { acceptLanguage: 'dev' }), false);
  });

  test('an entry with q=0 never matches, wherever it stands', () => {
    assert.equal(matches({ language: ['fr'] }, { acceptLanguage: 'de-AT,de;q=0.9,fr;q=0' }), false);
    assert.equal(matches({ language: ['fr'] }, { acceptLanguage: 'fr;q=0.0, en' }), false);
    assert.equal(
      matches({ language: ['en'] }, { acceptLanguage: 'de-AT,de;q=0.9,en;q=0.1' }),
      true,
    );
  });

  test('* names no language, and no header matches nothing', () => {
    assert.equal(matches({ language: ['en'] }, { acceptLanguage: '*' }), false);
    assert.equal(matches({ language: ['en'] }, {}), false);
  });
});

describe('country', () => {
  test('the visitor country in the list, in any case', () => {
    assert.equal(matches({ country: ['DE', 'AT'] }, { country: 'AT' }), true);
    assert.equal(matches({ country: ['DE', 'AT'] }, { country: 'at' }), true);
    assert.equal(matches({ country: ['DE'] }, { country: 'FR' }), false);
  });

  test('an unknown country matches nothing', () => {
    for (const country of [undefined, '', 'XX', 'T1', 'DEU']) {
      const visitor = country === undefined ? {} : { country };
      assert.equal(matches({ country: ['DE', 'US'] }, visitor), false, String(country));
    }
  });
});

describe('query', () => {
  test('{"p": "v"} holds when any value of p is v', () => {
    assert.equal(matches({ query: { ref: 'mail' } }, { query: 'ref=mail' }), true);
    assert.equal(matches({ query: { ref: 'mail' } }, { query: 'ref=web&ref=mail' }), true);
    assert.equal(matches({ query: { ref: 'mail' } }, { query: 'ref=web' }), false);
    assert.equal(matches({ query: { ref: 'mail' } }, { query: 'x=mail' }), false);
    assert.equal(matches({ query: { q: 'a b' } }, { query: 'q=a+b' }), true);
    assert.equal(matches({ query: { q: 'a b' } }, { query: 'q=a%20b' }), true);
    assert.equal(matches({ query: { ref: '' } }, { query: 'ref=' }), true);
  });

  test('{"p": true} holds when p is present with any value, even none', () => {
    assert.equal(matches({ query: { beta: true } }, { query: 'beta' }), true);
    assert.equal(matches({ query: { beta: true } }, { query: 'a=1&beta=' }), true);
    assert.equal(matches({ query: { beta: true } }, { query: 'betamax=1' }), false);
    assert.equal(matches({ query: { beta: true } }, {}), false);
  });

  test('every parameter of the condition must hold', () => {
    const when = { query: { a: '1', b: true } } as const;
    assert.equal(matches(when, { query: 'a=1&b=2' }), true);
    assert.equal(matches(when, { query: 'a=1' }), false);
  });
});

describe('ip', () => {
  test('IPv4 addresses and CIDR edges', () => {
    const when = { ip: ['192.0.2.0/24', '198.51.100.7'] };
    assert.equal(matches(when, { address: '192.0.2.0' }), true);
    assert.equal(matches(when, { address: '192.0.2.255' }), true);
    assert.equal(matches(when, { address: '192.0.1.255' }), false);
    assert.equal(matches(when, { address: '192.0.3.0' }), false);
    assert.equal(matches(when, { address: '198.51.100.7' }), true);
    assert.equal(matches(when, { address: '198.51.100.8' }), false);
    assert.equal(matches({ ip: ['0.0.0.0/0'] }, { address: '203.0.113.9' }), true);
  });

  test('IPv6 addresses and CIDR edges', () => {
    const when = { ip: ['2001:db8::/32', '2001:db9::1'] };
    assert.equal(matches(when, { address: '2001:db8::' }), true);
    assert.equal(matches(when, { address: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff' }), true);
    assert.equal(matches(when, { address: '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff' }), false);
    assert.equal(matches(when, { address: '2001:db9::1' }), true);
    assert.equal(matches(when, { address: '2001:db9::2' }), false);
  });

  test('an IPv4-mapped IPv6 visitor matches IPv4 rules, and mapped rules match IPv4 visitors', () => {
    assert.equal(matches({ ip: ['192.0.2.0/24'] }, { address: '::ffff:192.0.2.10' }), true);
    assert.equal(matches({ ip: ['192.0.2.0/24'] }, { address: '::ffff:192.0.3.10' }), false);
    assert.equal(matches({ ip: ['192.0.2.10'] }, { address: '::ffff:c000:20a' }), true);
  });

  test('IPv4 and IPv6 never match each other otherwise; no address or garbage matches nothing', () => {
    assert.equal(matches({ ip: ['::/0'] }, { address: '192.0.2.1' }), false);
    assert.equal(matches({ ip: ['0.0.0.0/0'] }, { address: '2001:db8::1' }), false);
    assert.equal(matches({ ip: ['0.0.0.0/0'] }, {}), false);
    assert.equal(matches({ ip: ['0.0.0.0/0'] }, { address: 'not-an-address' }), false);
  });

  test('only a well-formed dotted quad is an IPv4 visitor', () => {
    for (const address of [
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1..2.3',
      '1.2.3.4 ',
      '',
    ]) {
      assert.equal(matches({ ip: ['0.0.0.0/0'] }, { address }), false, address);
    }
    assert.equal(matches({ ip: ['255.255.255.255'] }, { address: '255.255.255.255' }), true);
    assert.equal(matches({ ip: ['0.0.0.0'] }, { address: '0.0.0.0' }), true);
    assert.equal(matches({ ip: ['128.0.0.0/1'] }, { address: '127.255.255.255' }), false);
    assert.equal(matches({ ip: ['128.0.0.0/1'] }, { address: '128.0.0.0' }), true);
    // Host bits in a rule's CIDR do not narrow it.
    assert.equal(matches({ ip: ['192.0.2.77/24'] }, { address: '192.0.2.1' }), true);
  });
});

describe('time window', () => {
  const after = Date.parse('2026-12-24T18:00:00Z');
  const before = Date.parse('2026-12-26T00:00:00Z');

  test('after is inclusive, before exclusive', () => {
    assert.equal(matches({ after, before }, { now: after - 1 }), false);
    assert.equal(matches({ after, before }, { now: after }), true);
    assert.equal(matches({ after, before }, { now: before - 1 }), true);
    assert.equal(matches({ after, before }, { now: before }), false);
  });

  test('either bound alone', () => {
    assert.equal(matches({ after }, { now: after + 1e12 }), true);
    assert.equal(matches({ after }, { now: after - 1 }), false);
    assert.equal(matches({ before }, { now: 0 }), true);
    assert.equal(matches({ before }, { now: before }), false);
  });
});

describe('rules together', () => {
  const all: RuleConditions = {
    device: ['mobile'],
    os: ['ios'],
    browser: ['safari'],
    language: ['de'],
    country: ['AT'],
    query: { ref: 'mail', beta: true },
    ip: ['192.0.2.0/24'],
    after: Date.parse('2026-12-01T00:00:00Z'),
    before: Date.parse('2026-12-31T00:00:00Z'),
  };
  const everything: VisitorFields = {
    userAgent: UA.iphone,
    acceptLanguage: 'de-AT,de;q=0.9',
    country: 'AT',
    query: 'ref=mail&beta',
    address: '192.0.2.44',
    now: Date.parse('2026-12-05T12:00:00Z'),
  };

  test('a rule with every condition holds when all do', () => {
    assert.equal(matches(all, everything), true);
  });

  test('and fails when any single one does not', () => {
    const spoilers: readonly VisitorFields[] = [
      { userAgent: UA.ipad },
      { userAgent: UA.androidSamsung },
      { userAgent: UA.macFirefox },
      { acceptLanguage: 'en' },
      { country: 'DE' },
      { query: 'ref=mail' },
      { address: '192.0.3.1' },
      { now: Date.parse('2026-12-31T00:00:00Z') },
    ];
    for (const spoiler of spoilers) {
      assert.equal(matches(all, { ...everything, ...spoiler }), false, JSON.stringify(spoiler));
    }
  });

  test('the first rule that holds wins; none gives -1', () => {
    const rules = compileRules([
      rule({ country: ['DE'] }, 'https://example.com/de'),
      rule({ device: ['mobile'] }, 'https://example.com/mobile'),
      rule({ country: ['AT'] }, 'https://example.com/at'),
    ]);
    assert.equal(firstMatchingRule(rules, makeVisitor({ country: 'AT', userAgent: UA.iphone })), 1);
    assert.equal(firstMatchingRule(rules, makeVisitor({ country: 'DE', userAgent: UA.iphone })), 0);
    assert.equal(firstMatchingRule(rules, makeVisitor({ country: 'AT' })), 2);
    assert.equal(firstMatchingRule(rules, makeVisitor({ country: 'FR' })), -1);
    assert.equal(firstMatchingRule(compileRules([]), makeVisitor()), -1);
  });

  test('the visitor is read lazily: only what a rule looks at, each at most once', () => {
    const rules = compileRules([
      rule({ country: ['DE'] }),
      rule({ country: ['AT'], query: { a: '1' } }),
      rule({ country: ['FR'] }),
    ]);
    const visitor = makeVisitor({ country: 'FR', query: 'a=1' });
    assert.equal(firstMatchingRule(rules, visitor), 2);
    assert.deepEqual(visitor.reads, {
      userAgent: 0,
      acceptLanguage: 0,
      country: 1,
      query: 0,
      address: 0,
    });
  });

  test('one compiled rule set serves many visitors without carrying anything over', () => {
    const rules = compileRules([rule({ query: { a: '1' }, country: ['DE'] })]);
    assert.equal(firstMatchingRule(rules, makeVisitor({ query: 'a=1', country: 'DE' })), 0);
    assert.equal(firstMatchingRule(rules, makeVisitor({ query: 'a=2', country: 'DE' })), -1);
    assert.equal(firstMatchingRule(rules, makeVisitor({ query: 'a=1', country: 'FR' })), -1);
    assert.equal(firstMatchingRule(rules, makeVisitor({ query: 'a=1', country: 'DE' })), 0);
  });
});
