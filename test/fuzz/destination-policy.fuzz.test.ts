import assert from 'node:assert/strict';
import { describe } from 'node:test';
import fc from 'fast-check';
import {
  checkDestination,
  type DestinationPolicyOptions,
} from '../../src/domain/destination-policy.js';
import { HopError } from '../../src/domain/errors.js';
import { PROBLEMS } from '../../src/http/problems.js';
import { checkDestinationOrThrow } from '../../src/services/links/check-destination-or-throw.js';
import { budgetSpentTest, fuzzTest } from './fuzz-budget.js';

/**
 * ADR 0088, SPEC §3 "Create rules": whatever string is offered as a destination, the policy
 * answers with a verdict and never throws; what it accepts keeps every rule, judged here
 * by an oracle written independently of the policy (its own table of non-public ranges,
 * applied to what the WHATWG parser makes of the URL); and accepting is idempotent.
 */

const OWN_HOST = 'hop.example';
const BLOCKED_DOMAIN = 'evil.example';

/** The policy with a length limit drawn too, so the boundary is met by short inputs as well. */
const policies: fc.Arbitrary<DestinationPolicyOptions> = fc
  .oneof(fc.constant(2048), fc.integer({ min: 32, max: 2048 }))
  .map((maxLength) => ({
    maxLength,
    ownHosts: [OWN_HOST],
    blockedDomains: new Set([BLOCKED_DOMAIN]),
  }));

// --- the oracle ---------------------------------------------------------------------------

/** IANA special-purpose IPv4 blocks that are not globally reachable, as [first, prefix]. */
const NON_PUBLIC_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4Value(dotted: string): number {
  return dotted.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function isNonPublicV4(value: number): boolean {
  return NON_PUBLIC_V4.some(([first, prefix]) => {
    const size = 2 ** (32 - prefix);
    return Math.floor(value / size) === Math.floor(v4Value(first) / size);
  });
}

/** The eight hextets of an IPv6 address as the WHATWG serialiser writes it (hex, "::"). */
function hextets(v6: string): number[] {
  const [head = '', tail] = v6.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function v6ProblemOf(v6: string): string | null {
  const h = hextets(v6);
  const embeddedV4 = (high: number, low: number) => high * 65536 + low;
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) {
    return isNonPublicV4(embeddedV4(h[6]!, h[7]!)) ? 'IPv4-mapped non-public address' : null;
  }
  if ((h[0]! & 0xe000) !== 0x2000) return 'IPv6 outside global unicast 2000::/3';
  if (h[0] === 0x2001 && (h[1] === 0 || h[1] === 0xdb8)) return 'Teredo or documentation IPv6';
  if (h[0] === 0x2002 && isNonPublicV4(embeddedV4(h[1]!, h[2]!))) return '6to4 of non-public';
  return null;
}

/**
 * Which rule `text` breaks that the policy must refuse it for, or null when the oracle sees
 * none (the policy may still refuse it for rules the oracle does not model, such as a
 * single-label host).
 */
function brokenRule(text: string, policy: DestinationPolicyOptions): string | null {
  if (text.length === 0) return 'empty';
  if (text.length > policy.maxLength) return 'too long';
  if (/[\p{Cc}\p{Z}\s]/u.test(text)) return 'whitespace or control character';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not http(s)';
  if (url.username !== '' || url.password !== '') return 'credentials';
  const host = url.hostname.replace(/\.+$/, '');
  if (host === '') return 'no host';
  if (host.startsWith('[')) return v6ProblemOf(host.slice(1, -1));
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
    return isNonPublicV4(v4Value(host)) ? 'non-public IPv4' : null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  if (host === OWN_HOST) return 'own host';
  if (host === BLOCKED_DOMAIN || host.endsWith(`.${BLOCKED_DOMAIN}`)) return 'blocked';
  return null;
}

/** The invariant every input must keep, whatever it is. */
function assertSoundVerdict(input: string, policy: DestinationPolicyOptions): void {
  const verdict = checkDestination(input, policy);
  const broken = brokenRule(input, policy);
  if (!verdict.ok) {
    assert.equal(typeof verdict.reason, 'string');
    assert.notEqual(verdict.reason, '');
    return;
  }
  assert.equal(broken, null, `accepted ${JSON.stringify(input)}, which breaks: ${broken}`);
  const stored = verdict.destination;
  assert.match(stored, /^https?:\/\//, `stored form ${stored} is not http(s)`);
  assert.ok(stored.length <= policy.maxLength, `stored form longer than ${policy.maxLength}`);
  // WHATWG serialises to printable ASCII: nothing invisible can hide in a stored URL.
  assert.match(stored, /^[\x21-\x7e]+$/, `stored form ${JSON.stringify(stored)}`);
  assert.equal(brokenRule(stored, policy), null, `stored form ${stored} breaks a rule`);
  assert.deepEqual(
    checkDestination(stored, policy),
    { ok: true, destination: stored },
    `stored form ${stored} is not accepted again unchanged`,
  );
}

// --- hostile URLs, assembled from pieces --------------------------------------------------

/** A uint32 inside one of the non-public IPv4 blocks. */
const nonPublicV4Value = fc
  .record({
    block: fc.constantFrom(...NON_PUBLIC_V4),
    offset: fc.nat(),
  })
  .map(({ block: [first, prefix], offset }) => v4Value(first) + (offset % 2 ** (32 - prefix)));

const anyV4Value = fc.nat({ max: 0xffff_ffff });

/** Every spelling the WHATWG IPv4 parser reads: 1-4 parts, each decimal, hex or octal. */
const v4Spelling = (values: fc.Arbitrary<number>) =>
  fc
    .record({
      value: values,
      parts: fc.integer({ min: 1, max: 4 }),
      radixes: fc.array(fc.constantFrom('dec', 'hex', 'HEX', 'oct', 'padded-hex'), {
        minLength: 4,
        maxLength: 4,
      }),
      trailingDot: fc.boolean(),
    })
    .map(({ value, parts, radixes, trailingDot }) => {
      const lastBytes = 5 - parts;
      const numbers = [
        ...Array.from({ length: parts - 1 }, (_, i) => Math.floor(value / 256 ** (3 - i)) % 256),
        value % 256 ** lastBytes,
      ];
      const spelt = numbers.map((n, i) => {
        switch (radixes[i]) {
          case 'hex':
            return `0x${n.toString(16)}`;
          case 'HEX':
            return `0X${n.toString(16).toUpperCase()}`;
          case 'oct':
            return `0${n.toString(8)}`;
          case 'padded-hex':
            return `0x000${n.toString(16)}`;
          default:
            return String(n);
        }
      });
      return spelt.join('.') + (trailingDot ? '.' : '');
    });

const v6Literal = fc
  .oneof(
    fc.ipV6(),
    fc.constantFrom(
      '::1',
      '::',
      'fe80::1',
      'fe80::1%25eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'fec0::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:8.8.8.8',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2002:808:808::1',
      '2001:db8::1',
      '2001::1',
      '2606:4700::1111',
    ),
    nonPublicV4Value.map((v) => `::ffff:${[24, 16, 8, 0].map((s) => (v >>> s) & 255).join('.')}`),
  )
  .map((v6) => `[${v6}]`);

const internalName = fc.constantFrom(
  'localhost',
  'LOCALHOST',
  'localhost.',
  'localhost..',
  'a.localhost',
  'printer.local',
  'db.internal',
  'router.home.arpa',
  'localhost%2e',
  'local%68ost',
  'ｌｏｃａｌｈｏｓｔ',
  'intranet',
  OWN_HOST,
  `${OWN_HOST.toUpperCase()}.`,
  'hop%2eexample',
  BLOCKED_DOMAIN,
  `www.${BLOCKED_DOMAIN}`,
);

const idnName = fc.constantFrom(
  'bücher.de',
  'münchen.example',
  '例え.jp',
  'xn--bcher-kva.de',
  'xn--.example',
  'xn--a.example',
  'ß.example',
  'ﬀ.example',
  'a\u200db.example',
  '٣.example',
  'a。b。example',
  'example．com',
);

/** Disguises of a host that WHATWG undoes: percent-encoding, full-width forms, case. */
const disguised = (hosts: fc.Arbitrary<string>) =>
  fc
    .tuple(hosts, fc.constantFrom('plain', 'percent', 'full-width', 'upper', 'ideographic-dots'))
    .map(([host, disguise]) => {
      switch (disguise) {
        case 'percent':
          return Array.from(
            Buffer.from(host, 'utf8'),
            (byte) => `%${byte.toString(16).padStart(2, '0')}`,
          ).join('');
        case 'full-width':
          return host.replace(/[0-9a-z.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
        case 'upper':
          return host.toUpperCase();
        case 'ideographic-dots':
          return host.replaceAll('.', '\u3002');
        default:
          return host;
      }
    });

const host = fc.oneof(
  { arbitrary: disguised(v4Spelling(nonPublicV4Value)), weight: 4 },
  { arbitrary: disguised(v4Spelling(anyV4Value)), weight: 2 },
  { arbitrary: v6Literal, weight: 3 },
  { arbitrary: disguised(internalName), weight: 3 },
  { arbitrary: idnName, weight: 1 },
  { arbitrary: fc.domain(), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
);

/** Mostly `none`, sometimes one of `values`: most hostile URLs should reach the host checks. */
const rarely = <T>(values: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: values, weight: 1 });

const hostileUrl = fc
  .record({
    scheme: fc.oneof(
      { arbitrary: fc.constantFrom('http', 'https', 'HTTPS', 'hTtP'), weight: 8 },
      { arbitrary: fc.constantFrom('javascript', 'data', 'file', 'ws', 'ftp'), weight: 1 },
    ),
    separator: fc.oneof(
      { arbitrary: fc.constant('://'), weight: 8 },
      { arbitrary: fc.constantFrom(':/', ':', ':\\\\', ':///', '://\\'), weight: 1 },
    ),
    userinfo: fc.oneof(
      { arbitrary: fc.constant(''), weight: 8 },
      {
        arbitrary: fc.constantFrom('user@', 'user:pass@', ':@', '@', ':pw@', 'a@b@', '%40@'),
        weight: 1,
      },
    ),
    host,
    port: fc.constantFrom('', '', '', ':80', ':443', ':0', ':65535', ':65536', ':', ':8o'),
    path: fc.constantFrom('', '/', '/a/../b', '/%2e%2e/x', '/@evil.example', '/?next=//127.0.0.1'),
    tail: fc.oneof(
      fc.constant(''),
      fc.webQueryParameters().map((q) => `?${q}`),
    ),
    // Lengths around the limit, in characters that WHATWG keeps or lengthens (é → %C3%A9).
    padding: rarely(
      fc.record({
        length: fc.integer({ min: -8, max: 8 }),
        unit: fc.constantFrom('a', '%41', '"', 'é', '^'),
      }),
    ),
    // One character the policy must refuse, wherever it lands (WHATWG would drop some).
    intruder: rarely(
      fc.record({
        at: fc.nat(),
        char: fc.constantFrom(
          ' ',
          '\t',
          '\n',
          '\r',
          '\0',
          '\u00a0',
          '\u200b',
          '\u202e',
          '\ufeff',
          '\u0085',
          '\u2028',
          '\u007f',
        ),
      }),
    ),
    maxLength: fc.oneof(
      { arbitrary: fc.constant(2048), weight: 4 },
      { arbitrary: fc.integer({ min: 32, max: 300 }), weight: 1 },
    ),
  })
  .map((pieces) => {
    let url = `${pieces.scheme}${pieces.separator}${pieces.userinfo}${pieces.host}${pieces.port}${pieces.path}${pieces.tail}`;
    if (pieces.padding !== null) {
      const wanted = pieces.maxLength + pieces.padding.length - url.length;
      if (wanted > 0) {
        url += `/${pieces.padding.unit.repeat(Math.ceil(wanted / pieces.padding.unit.length))}`;
      }
    }
    if (pieces.intruder !== null) {
      const at = pieces.intruder.at % (url.length + 1);
      url = url.slice(0, at) + pieces.intruder.char + url.slice(at);
    }
    const policy: DestinationPolicyOptions = {
      maxLength: pieces.maxLength,
      ownHosts: [OWN_HOST],
      blockedDomains: new Set([BLOCKED_DOMAIN]),
    };
    return { url, policy };
  });

/** Web URLs, mostly without credentials (which would be refused before the host is seen). */
const webUrl = fc.oneof(
  ...[false, false, false, true].map((withUserInfo) =>
    fc.webUrl({
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: {
        withIPv4: true,
        withIPv4Extended: true,
        withIPv6: true,
        withPort: true,
        withUserInfo,
      },
    }),
  ),
);

const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }).map((rest) => `http://${rest}`),
  fc
    .string({ unit: 'binary-ascii', maxLength: 3000, size: 'large' })
    .map((rest) => `https://${rest}`),
);

describe('fuzz: the destination policy (SPEC §3 create rules)', () => {
  const FILE = 'destination-policy';

  fuzzTest(
    FILE,
    'web URLs: an accepted URL keeps every rule, and is accepted again unchanged',
    fc.tuple(webUrl, policies),
    ([url, policy]) => {
      assertSoundVerdict(url, policy);
    },
  );

  fuzzTest(
    FILE,
    'hostile URLs: internal hosts in any spelling are refused, the rest keep every rule',
    hostileUrl,
    ({ url, policy }) => {
      assertSoundVerdict(url, policy);
    },
  );

  fuzzTest(
    FILE,
    'any string: a verdict, never a throw',
    fc.tuple(anyString, policies),
    ([text, policy]) => {
      assertSoundVerdict(text, policy);
    },
  );

  fuzzTest(
    FILE,
    'checkDestinationOrThrow: the normalised URL, or an invalid-destination HopError',
    fc.oneof(
      fc.tuple(webUrl, policies),
      hostileUrl.map(({ url, policy }) => [url, policy] as const),
      fc.tuple(anyString, policies),
    ),
    ([input, policy]) => {
      const verdict = checkDestination(input, policy);
      let stored: string;
      try {
        stored = checkDestinationOrThrow(input, policy);
      } catch (error) {
        assert.ok(error instanceof HopError, `threw ${String(error)}`);
        assert.equal(error.kind, 'invalid-destination');
        const status = PROBLEMS[error.kind].status;
        assert.ok(status >= 400 && status < 500, `invalid-destination maps to ${status}`);
        assert.deepEqual(
          error.fields.map((problem) => problem.field),
          ['destination'],
        );
        assert.equal(verdict.ok, false, 'threw for a destination checkDestination accepts');
        return;
      }
      assert.deepEqual(verdict, { ok: true, destination: stored });
    },
  );

  budgetSpentTest(FILE);
});
