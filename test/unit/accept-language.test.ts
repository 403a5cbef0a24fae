import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { primaryLanguageOf } from '../../src/domain/accept-language.js';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';
import { tallyOfEvent } from '../../src/domain/click-tally.js';
import { decodeEvent, encodeEvent } from '../../src/wire/click-event-codec.js';

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

describe('a click event carries its language (JetStream, ADR 0125)', () => {
  test('round-trips as `g`; an event without one has none; its tally has its second', () => {
    const event = {
      instance: 'Abc123',
      seq: 7,
      linkId: 'link-1',
      code: 'abc1234',
      at: 1_781_956_801_234,
      country: 'DE',
      device: 'mobile' as const,
      referrer: '',
      browser: 'safari' as const,
      os: 'ios' as const,
      city: '',
      language: 'fr',
    };
    assert.deepEqual(decodeEvent(encodeEvent(event)), event);
    const without: Partial<typeof event> = { ...event };
    delete without.language;
    assert.deepEqual(decodeEvent(encodeEvent({ ...event, language: '' })), without);
    const [bucket] = tallyOfEvent(event).buckets;
    assert.equal(bucket?.second, 1_781_956_801_000);
    assert.equal(bucket?.language, 'fr');
  });
});
