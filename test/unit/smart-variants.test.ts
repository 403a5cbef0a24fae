import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compileVariants,
  cookieValueOf,
  drawVariant,
  stickyVariant,
  variantCookieName,
  variantCookieValue,
} from '../../src/domain/smart/variants.js';
import type { LinkVariant } from '../../src/domain/smart/smart-options.js';
import { seededRandom } from '../support/seeded-random.js';

/** Issue 21: variants drawn by weight; a visitor keeps the first drawn (a cookie). */

function variants(...weights: number[]): LinkVariant[] {
  return weights.map((weight, i) => ({ destination: `https://example.com/v${i}`, weight }));
}

function countDraws(weights: number[], draws: number, random: () => number): number[] {
  const draw = compileVariants(variants(...weights));
  const counts = weights.map(() => 0);
  for (let i = 0; i < draws; i++) counts[drawVariant(draw, random)]! += 1;
  return counts;
}

describe('drawing by weight', () => {
  test('the ends of [0, 1) fall on the first and last variant; boundaries go up', () => {
    const draw = compileVariants(variants(1, 1, 2));
    assert.equal(
      drawVariant(draw, () => 0),
      0,
    );
    assert.equal(
      drawVariant(draw, () => 0.25),
      1,
    );
    assert.equal(
      drawVariant(draw, () => 0.5),
      2,
    );
    assert.equal(
      drawVariant(draw, () => 0.999_999_999),
      2,
    );
  });

  test('20,000 seeded draws fit the weights (chi-square, p = 0.001, cannot flake)', () => {
    const weights = [1, 9, 30, 60];
    const draws = 20_000;
    const counts = countDraws(weights, draws, seededRandom(21));
    const total = weights.reduce((a, b) => a + b, 0);
    const chiSquare = counts.reduce((sum, observed, i) => {
      const expected = (draws * weights[i]!) / total;
      return sum + (observed - expected) ** 2 / expected;
    }, 0);
    // Upper 0.001 quantile of chi-square with 3 degrees of freedom.
    assert.ok(chiSquare < 16.27, `chi-square ${chiSquare.toFixed(2)} for ${counts.join(', ')}`);
  });

  test('10,000 Math.random draws stay within 6 sigma of each weight', () => {
    const weights = [30, 70];
    const draws = 10_000;
    const counts = countDraws(weights, draws, Math.random);
    for (const [i, weight] of weights.entries()) {
      const p = weight / 100;
      const sigma = Math.sqrt(draws * p * (1 - p));
      assert.ok(Math.abs(counts[i]! - draws * p) < 6 * sigma, counts.join(', '));
    }
  });
});

describe('stickiness', () => {
  const linkId = '01JF0000000000000000000000';
  const set = variants(50, 50);

  test('the cookie round-trips: name, value, read back from a Cookie header', () => {
    const draw = compileVariants(set);
    const name = variantCookieName(linkId);
    assert.match(name, /^[A-Za-z0-9_]+$/);
    for (const index of [0, 1]) {
      const value = variantCookieValue(draw, index);
      assert.match(value, /^[a-z0-9]+$/);
      const header = `theme=dark; ${name}=${value}; other=1`;
      assert.equal(stickyVariant(draw, cookieValueOf(header, name)), index);
    }
  });

  test('reordering or reweighting keeps the visitor on the same destination', () => {
    const value = variantCookieValue(compileVariants(set), 1);
    const reordered = compileVariants([
      { ...set[1]!, weight: 10 },
      { ...set[0]!, weight: 90 },
    ]);
    assert.equal(stickyVariant(reordered, value), 0);
  });

  test('a variant removed or changed draws again (-1); so do no and foreign cookies', () => {
    const draw = compileVariants(set);
    const value = variantCookieValue(draw, 1);
    const changed = compileVariants([
      set[0]!,
      { destination: 'https://example.com/new', weight: 50 },
    ]);
    assert.equal(stickyVariant(changed, value), -1);
    assert.equal(stickyVariant(draw, undefined), -1);
    assert.equal(stickyVariant(draw, 'garbage'), -1);
  });

  test('cookieValueOf finds only the exact name, at a pair start', () => {
    const name = variantCookieName(linkId);
    assert.equal(cookieValueOf(undefined, name), undefined);
    assert.equal(cookieValueOf('', name), undefined);
    assert.equal(cookieValueOf(`${name}=abc`, name), 'abc');
    assert.equal(cookieValueOf(`x${name}=no; ${name}=yes`, name), 'yes');
    assert.equal(cookieValueOf(`${name}x=no;${name}=yes`, name), 'yes');
    assert.equal(cookieValueOf(`a=${name}=no`, name), undefined);
    assert.equal(cookieValueOf(name, name), undefined);
    assert.equal(cookieValueOf(`${name}= spaced ;b=1`, name), 'spaced');
  });
});
