import assert from 'node:assert/strict';
import { describe } from 'node:test';
import fc from 'fast-check';
import { assertValidAlias, isReservedAlias } from '../../src/domain/alias-rules.js';
import { isPossibleCode } from '../../src/domain/code-format.js';
import { HopError } from '../../src/domain/errors.js';
import { PROBLEMS } from '../../src/http/problems.js';
import { budgetSpentTest, fuzzTest } from './fuzz-budget.js';

/**
 * ADR 0088, SPEC §2 aliases and §3 "a path that cannot be a code": for every string, the
 * alias rules and the code-format precheck agree with the SPEC's own wording, written here
 * as a regex and a word list rather than taken from the code under test.
 */

const CODE_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;
/** Issue 24 (ADR 0136): any code hop may hold, kept peers' codes included. */
const POSSIBLE_CODE_SHAPE = /^[A-Za-z0-9._~-]{1,64}$/;

/** SPEC §2, word for word. */
const SPEC_RESERVED: readonly string[] = [
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
  // Issue 24: the peers' APIs.
  'rest',
  'yourls-api.php',
];

const isSpecReserved = (text: string) => SPEC_RESERVED.includes(text.toLowerCase());

const CODE_CHARACTERS = Array.from(
  '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_',
);

/** Characters one step outside the alphabet: neighbours in ASCII, look-alikes, invisibles. */
const FOREIGN_CHARACTERS = [
  ...Array.from('./:%+ ~@`[]{}\\\0\t\n'),
  '\u00e9', // é
  '\u0131', // dotless ı, which upper-cases to I
  '\u212a', // Kelvin sign, which lower-cases to k
  '\u0430', // Cyrillic а
  '\uff41', // full-width ａ
  '\u200b', // zero-width space
  '\ud800', // a lone surrogate
  '\u{1f600}',
];

/** Code-alphabet strings, their lengths weighted towards the 3 and 64 boundaries. */
const codeShaped = fc
  .oneof(fc.constantFrom(0, 1, 2, 3, 4, 63, 64, 65, 66), fc.integer({ min: 0, max: 80 }))
  .chain((length) =>
    fc.string({ unit: fc.constantFrom(...CODE_CHARACTERS), minLength: length, maxLength: length }),
  );

/** A code-shaped string with one foreign character put somewhere in it. */
const almostCodeShaped = fc
  .tuple(codeShaped, fc.nat(), fc.constantFrom(...FOREIGN_CHARACTERS))
  .map(([text, at, foreign]) => {
    const where = at % (text.length + 1);
    return text.slice(0, where) + foreign + text.slice(where);
  });

const reservedInAnyCase = fc.mixedCase(fc.constantFrom(...SPEC_RESERVED));

/** A reserved word, or one a character longer or shorter: the words' nearest neighbours. */
const nearReserved = fc
  .tuple(reservedInAnyCase, fc.constantFrom('', 'x', '-', '_', '1', '.', 'S'), fc.boolean())
  .map(([word, extra, trim]) => (trim ? word.slice(0, -1) : word) + extra);

const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
);

const nearAlias = fc.oneof(codeShaped, almostCodeShaped, reservedInAnyCase, nearReserved);

/** assertValidAlias passes exactly the code-shaped, unreserved strings; else invalid-alias. */
function assertAliasVerdict(alias: string): void {
  const wanted = CODE_SHAPE.test(alias) && !isSpecReserved(alias);
  try {
    assertValidAlias(alias);
  } catch (error) {
    assert.ok(error instanceof HopError, `threw ${String(error)}`);
    assert.equal(error.kind, 'invalid-alias');
    const status = PROBLEMS[error.kind].status;
    assert.ok(status >= 400 && status < 500, `invalid-alias maps to ${status}`);
    assert.deepEqual(
      error.fields.map((problem) => problem.field),
      ['alias'],
    );
    assert.equal(wanted, false, `refused the valid alias ${JSON.stringify(alias)}`);
    return;
  }
  assert.equal(wanted, true, `accepted the invalid alias ${JSON.stringify(alias)}`);
}

describe('fuzz: alias rules and the code-format precheck (SPEC §2, §3)', () => {
  const FILE = 'alias-and-code-format';

  fuzzTest(
    FILE,
    'assertValidAlias on any string: passes exactly the well-formed, unreserved ones',
    anyString,
    assertAliasVerdict,
  );

  fuzzTest(
    FILE,
    'assertValidAlias on near-aliases: passes exactly the well-formed, unreserved ones',
    nearAlias,
    assertAliasVerdict,
  );

  fuzzTest(
    FILE,
    'isReservedAlias ignores case',
    fc.oneof(reservedInAnyCase, nearReserved, anyString),
    (text) => {
      assert.equal(isReservedAlias(text), isSpecReserved(text), JSON.stringify(text));
    },
  );

  fuzzTest(
    FILE,
    'isPossibleCode agrees with ^[A-Za-z0-9._~-]{1,64}$ on every string',
    fc.oneof(anyString, codeShaped, almostCodeShaped),
    (text) => {
      assert.equal(isPossibleCode(text), POSSIBLE_CODE_SHAPE.test(text), JSON.stringify(text));
    },
  );

  budgetSpentTest(FILE);
});
