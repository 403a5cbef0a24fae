import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageLanguage, prefersHtml } from '../../src/http/pages/negotiation.js';

describe('prefersHtml (ADR 0092)', () => {
  test('browsers navigating name text/html first', () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', // Chromium, Firefox
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8,application/json;q=0.1',
      'Text/HTML',
      'text/html;level=1;q=0.7, application/json;q=0.6',
    ]) {
      assert.equal(prefersHtml(accept), true, accept);
    }
  });

  test('API clients, wildcards, ties and refusals keep problem+json', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'text/*',
      'application/json',
      'application/problem+json, text/html',
      'text/html;q=0',
      'text/html;q=0.5, application/problem+json;q=0.8',
      'text/html;q=1.5',
      'text/plain',
      `text/html,${' '.repeat(3000)}`, // over-long: not parsed
    ]) {
      assert.equal(prefersHtml(accept), false, String(accept));
    }
  });
});

describe('pageLanguage', () => {
  test('the shipped language with the highest weight; the first on a tie; else English', () => {
    const cases: readonly (readonly [string | undefined, string])[] = [
      ['de-AT', 'de'],
      ['fr;q=0.5, es;q=0.5', 'fr'],
      ['it, es;q=0.1', 'es'],
      ['EN-gb;q=0.2, DE;q=0.9', 'de'],
      ['de;q=0', 'en'],
      ['*;q=1', 'en'],
      ['x-klingon', 'en'],
      [undefined, 'en'],
    ];
    for (const [header, language] of cases) assert.equal(pageLanguage(header), language, header);
  });
});
