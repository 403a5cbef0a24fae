import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { primaryLanguageOf } from '../../src/domain/accept-language.js';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';

describe('primaryLanguageOf (ADR 0125)', () => {
  test('the most preferred range, its primary subtag, lower case', () => {
    assert.equal(primaryLanguageOf('fr-CH, fr;q=0.9, en;q=0.8'), 'fr');
    assert.equal(primaryLanguageOf('EN-us'), 'en');
    assert.equal(primaryLanguageOf('de;q=0.5, pt-BR'), 'pt');
    assert.equal(primaryLanguageOf('*;q=1, es;q=0.4'), 'es');
    assert.equal(primaryLanguageOf('gsw, de;q=0.9'), 'gsw');
  });

  test('the wildcard, refused ranges and garbage are unknown', () => {
    for (const raw of [
      '*',
      '',
      undefined,
      'en;q=0',
      '!!!',
      'x',
      'english',
      '12-34',
      'en;q=abc',
      ';;;,,,',
      'zh'.repeat(400),
    ]) {
      assert.equal(primaryLanguageOf(raw), '', String(raw));
    }
  });

  test('the buffer keeps the header raw and the flush parses it', () => {
    const buffer = new ClickBuffer(4, new ClickDimensions());
    const push = (language: string | undefined) =>
      buffer.push('link', 'code', 1_000, undefined, undefined, 'DE', undefined, language);
    push('fr-CH, fr;q=0.9, en;q=0.8');
    push('*');
    push('garbage!');
    push(undefined);
    const batch = buffer.peek(4, 'inst-a');
    assert.deepEqual(batch.languages?.slice(0, 4), ['fr', '', '', '']);
  });
});
