import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import {
  ALIAS_PATTERN,
  CODE_PATTERN,
  isAliasShaped,
  isPossibleCode,
  MAX_ALIAS_LENGTH,
  MAX_CODE_LENGTH,
  MIN_ALIAS_LENGTH,
  MIN_CODE_LENGTH,
} from '../../src/domain/code-format.js';

/**
 * SPEC §3: a path that cannot be a code is answered 404 without touching any store. Issue
 * 24 (ADR 0136): codes kept from a peer may be 1–64 of RFC 3986's unreserved characters;
 * new aliases keep SPEC §2's shape.
 */

test('the length bounds are 1 and 64 for codes, 3 and 64 for aliases', () => {
  assert.equal(MIN_CODE_LENGTH, 1);
  assert.equal(MAX_CODE_LENGTH, 64);
  assert.equal(MIN_ALIAS_LENGTH, 3);
  assert.equal(MAX_ALIAS_LENGTH, 64);
});

test('lengths: 1 to 64 are possible, shorter and longer are not', () => {
  assert.equal(isPossibleCode(''), false);
  assert.equal(isPossibleCode('a'), true);
  assert.equal(isPossibleCode('ab'), true);
  assert.equal(isPossibleCode('abc'), true);
  assert.equal(isPossibleCode('aB3xY9z'), true);
  assert.equal(isPossibleCode('a'.repeat(63)), true);
  assert.equal(isPossibleCode('a'.repeat(64)), true);
  assert.equal(isPossibleCode('a'.repeat(65)), false);
  assert.equal(isPossibleCode('a'.repeat(100_000)), false);
});

test('every base62 and base64url character is possible', () => {
  for (const alphabet of Object.values(ALPHABETS)) {
    for (const ch of alphabet) assert.equal(isPossibleCode(ch.repeat(3)), true, ch);
    assert.equal(isPossibleCode(alphabet), true);
  }
  assert.equal(isPossibleCode('-_-'), true);
  assert.equal(isPossibleCode('___'), true);
});

test('the ASCII neighbours of every allowed range are refused', () => {
  // '/' ':' before/after digits, '@' '[' around A-Z, '`' '{' around a-z, ',' before '-',
  // '^' before '_', '}' '\x7f' around '~'.
  for (const ch of ['/', ':', '@', '[', '`', '{', ',', '^', '}', '\x7f', '+', '%']) {
    assert.equal(isPossibleCode(`ab${ch}cd`), false, ch);
  }
});

test('"." and "~" are possible in codes (kept from peers), never in aliases', () => {
  for (const code of ['a.b', '~x', 'v1.2', 'x~y.z-_']) {
    assert.equal(isPossibleCode(code), true, code);
    assert.equal(isAliasShaped(code), false, code);
  }
});

test('every character outside [A-Za-z0-9._~-] in the first 64 Ki code units is refused', () => {
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    const code = /^[A-Za-z0-9._~-]$/.test(ch);
    const alias = /^[A-Za-z0-9_-]$/.test(ch);
    const name = `U+${c.toString(16).padStart(4, '0')}`;
    assert.equal(isPossibleCode(`ab${ch}`), code, name);
    assert.equal(isAliasShaped(`ab${ch}`), alias, name);
  }
});

test('aliases: 3 to 64 characters of [A-Za-z0-9_-]', () => {
  assert.equal(isAliasShaped('ab'), false);
  assert.equal(isAliasShaped('abc'), true);
  assert.equal(isAliasShaped('a'.repeat(64)), true);
  assert.equal(isAliasShaped('a'.repeat(65)), false);
  assert.equal(ALIAS_PATTERN, '^[A-Za-z0-9_-]{3,64}$');
  const pattern = new RegExp(ALIAS_PATTERN);
  for (const candidate of ['', 'ab', 'abc', 'a.c', 'a~c', 'a'.repeat(65), 'abé']) {
    assert.equal(pattern.test(candidate), isAliasShaped(candidate), JSON.stringify(candidate));
  }
});

test('paths, encodings and non-ASCII lookalikes are refused', () => {
  for (const candidate of [
    'abc/',
    '/abc',
    '../abc',
    'ab%20c',
    'abc?x=1',
    'abc#frag',
    'abc+',
    'ab c',
    'abc\n',
    'ab\u0000c',
    'abé',
    'ａbc',
    'аbc',
    'ab😀',
  ]) {
    assert.equal(isPossibleCode(candidate), false, JSON.stringify(candidate));
  }
});

test('the length counts UTF-16 code units, so astral characters cannot sneak past', () => {
  // Two code units each: 32 emoji are 64 units but still not possible, by character.
  assert.equal(isPossibleCode('😀'.repeat(32)), false);
  assert.equal(isPossibleCode('a😀'), false);
});

test('codes are case-sensitive: both cases are possible and distinct strings', () => {
  assert.equal(isPossibleCode('AbCdEfG'), true);
  assert.equal(isPossibleCode('abcdefg'), true);
});

test('the documented pattern is the shape isPossibleCode checks', () => {
  assert.equal(CODE_PATTERN, '^[A-Za-z0-9._~-]{1,64}$');
  const pattern = new RegExp(CODE_PATTERN);
  const candidates = [
    '',
    'a',
    'ab',
    'a~b',
    'abc',
    'a-_',
    'a'.repeat(64),
    'a'.repeat(65),
    'ab.c',
    'abé',
    'ab\n',
  ];
  for (const candidate of candidates) {
    assert.equal(pattern.test(candidate), isPossibleCode(candidate), JSON.stringify(candidate));
  }
});
