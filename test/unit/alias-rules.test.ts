import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  assertValidAlias,
  importedCodeProblem,
  isLinkIdShaped,
  isReservedAlias,
  RESERVED_ALIASES,
} from '../../src/domain/alias-rules.js';
import { HopError } from '../../src/domain/errors.js';

/** SPEC §2: aliases are `[A-Za-z0-9_-]`, 3–64 characters, and never a reserved word. */

const SPEC_RESERVED = [
  'v1',
  'api',
  'admin',
  'static',
  'assets',
  'health',
  'healthz',
  'readyz',
  'metrics',
  'docs',
  'openapi.json',
  'favicon.ico',
  'robots.txt',
  'login',
  'logout',
] as const;

/** Issue 24: the peers' APIs (Shlink's /rest, YOURLS's /yourls-api.php). */
const PEER_RESERVED = ['rest', 'yourls-api.php'] as const;

/** The word as written, in upper case, capitalised, and in alternating case. */
function spellings(word: string): string[] {
  const capitalised = word.charAt(0).toUpperCase() + word.slice(1);
  const alternating = word.replace(/./g, (ch, i: number) => (i % 2 === 0 ? ch.toUpperCase() : ch));
  return [...new Set([word, word.toUpperCase(), capitalised, alternating])];
}

function assertInvalidAlias(alias: string, detail?: RegExp): void {
  assert.throws(
    () => {
      assertValidAlias(alias);
    },
    (error: unknown) => {
      assert.ok(error instanceof HopError, 'a HopError');
      assert.equal(error.kind, 'invalid-alias');
      assert.equal(error.retryable, false);
      assert.deepEqual(error.fields, [{ field: 'alias', detail: error.detail }]);
      if (detail !== undefined) assert.match(error.detail, detail);
      return true;
    },
    `${JSON.stringify(alias)} should be refused`,
  );
}

describe('assertValidAlias: length', () => {
  test('3 characters is the shortest alias', () => {
    assertValidAlias('abc');
    assertInvalidAlias('ab', /3 to 64/);
  });
  test('64 characters is the longest alias', () => {
    assertValidAlias('a'.repeat(64));
    assertInvalidAlias('a'.repeat(65), /3 to 64/);
  });
  test('empty, one and two characters are refused', () => {
    for (const alias of ['', 'a', 'Z9']) assertInvalidAlias(alias, /3 to 64/);
  });
  test('far too long is refused', () => {
    assertInvalidAlias('x'.repeat(10_000), /3 to 64/);
  });
});

describe('assertValidAlias: characters', () => {
  test('letters, digits, "_" and "-" in any mix are accepted', () => {
    for (const alias of [
      'abc',
      'ABC',
      '123',
      '___',
      '---',
      'my-link_2024',
      'Summer-Sale',
      '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_',
      '-leading-dash',
      '_leading_underscore',
    ]) {
      assert.doesNotThrow(() => {
        assertValidAlias(alias);
      }, alias);
    }
  });

  test('every other printable ASCII character is refused', () => {
    for (let c = 0x20; c <= 0x7e; c++) {
      const ch = String.fromCharCode(c);
      if (/[A-Za-z0-9_-]/.test(ch)) continue;
      assertInvalidAlias(`ab${ch}cd`, /only letters, digits/);
    }
  });

  test('control characters, whitespace and non-ASCII letters are refused', () => {
    for (const alias of [
      'abc\u0000',
      'ab\tc',
      'abc\n',
      ' abc',
      'ab\u00a0c',
      'ab\u200bc',
      'café',
      'ａbc', // fullwidth a
      'аbc', // Cyrillic a
      'abc😀',
      'ab%20c',
      '../etc',
      'a/b/c',
      'abc.def',
      'abc?x=1',
      'abc#x',
    ]) {
      assertInvalidAlias(alias, /only letters, digits/);
    }
  });
});

describe('reserved words', () => {
  test("the reserved set is exactly the SPEC list and the peers' paths, in lower case", () => {
    assert.deepEqual([...RESERVED_ALIASES].sort(), [...SPEC_RESERVED, ...PEER_RESERVED].sort());
  });

  for (const word of [...SPEC_RESERVED, ...PEER_RESERVED]) {
    test(`"${word}" is reserved in every case`, () => {
      for (const spelling of spellings(word)) {
        assert.equal(isReservedAlias(spelling), true, spelling);
        assertInvalidAlias(spelling);
      }
    });
  }

  test('reserved words that fit the alias shape are refused as reserved', () => {
    for (const word of SPEC_RESERVED.filter((w) => /^[a-z0-9_-]{3,64}$/.test(w))) {
      for (const spelling of spellings(word)) assertInvalidAlias(spelling, /reserved/);
    }
  });

  test('mixed-case spellings from the brief', () => {
    for (const alias of ['Docs', 'HEALTHZ', 'OpenAPI.json', 'Favicon.ICO', 'Robots.Txt', 'V1']) {
      assert.equal(isReservedAlias(alias), true, alias);
      assertInvalidAlias(alias);
    }
  });

  test('words that only contain or resemble a reserved word are free', () => {
    for (const alias of [
      'docs2',
      'mydocs',
      'admins',
      'api-v1',
      'v1-launch',
      'health-check',
      'login_page',
      'openapi',
      'openapi-json',
      'favicon',
      'robots',
      'metric',
      'logouts',
    ]) {
      assert.equal(isReservedAlias(alias), false, alias);
      assert.doesNotThrow(() => {
        assertValidAlias(alias);
      }, alias);
    }
  });

  test('isReservedAlias does not trim or normalise beyond case', () => {
    assert.equal(isReservedAlias(' docs'), false);
    assert.equal(isReservedAlias('docs '), false);
    assert.equal(isReservedAlias('docs/'), false);
    assert.equal(isReservedAlias(''), false);
  });
});

describe('an alias never has the shape of a link id (ADR 0101)', () => {
  test('a ULID as hop writes ids is refused, with the reason', () => {
    for (const alias of ['01JEXAMPQE0000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ']) {
      assert.equal(isLinkIdShaped(alias), true, alias);
      assert.throws(
        () => assertValidAlias(alias),
        (error: unknown) =>
          error instanceof HopError &&
          error.kind === 'invalid-alias' &&
          /shape of a link id/.test(error.detail),
      );
    }
  });

  test('near misses are aliases like any other', () => {
    for (const alias of [
      '01jexampqe0000000000000000', // lower case: ids are upper case
      '01JEXAMPQE000000000000000', // 25 characters
      '01JEXAMPQE00000000000000000', // 27 characters
      '81JEXAMPQE0000000000000000', // above the largest ULID
      '01JEXAMPQEI000000000000000', // I is not Crockford base32
    ]) {
      assert.equal(isLinkIdShaped(alias), false, alias);
      assertValidAlias(alias);
    }
  });
});

describe('importedCodeProblem (issue 24, ADR 0136)', () => {
  test("peers' codes within hop's shape are kept: 1-2 characters, '.', '~', any case", () => {
    for (const code of [
      'a',
      'Z',
      '1',
      'ab',
      'Ab',
      'v1.2',
      '~x',
      'a.b~c',
      'x'.repeat(64),
      '-',
      '_',
    ]) {
      assert.equal(importedCodeProblem(code), null, code);
    }
  });

  test('codes hop cannot serve are named with why', () => {
    const cases: [string, RegExp][] = [
      ['', /1 to 64/],
      ['x'.repeat(65), /1 to 64/],
      ['a/b', /1 to 64/],
      ['a b', /1 to 64/],
      ['a+', /1 to 64/],
      ['caf\u00e9', /1 to 64/],
      ['.', /remove it from a path/],
      ['..', /remove it from a path/],
      ['Docs', /reserved/],
      ['REST', /reserved/],
      ['yourls-api.php', /reserved/],
      ['favicon.ico', /reserved/],
      ['01HZX3J5Q8W6V2T9R4N7M0K1PB', /link id/],
    ];
    for (const [code, why] of cases) {
      const problem = importedCodeProblem(code);
      assert.ok(problem !== null, code);
      assert.match(problem, why, code);
    }
  });
});
