import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readClickHeaders } from '../../src/http/click-headers.js';

describe('readClickHeaders', () => {
  test('finds user agent, referer, Accept-Language and the country header in any case; the first value wins', () => {
    const found = readClickHeaders(
      [
        'Host',
        'hop.test',
        'USER-AGENT',
        'agent-1',
        'Referer',
        'https://a.example/',
        'user-agent',
        'agent-2',
        'CF-IPCountry',
        'de',
        'Accept',
        '*/*',
        'Accept-Language',
        'fr-CH, fr;q=0.9',
        'accept-language',
        'en',
      ],
      'cf-ipcountry',
    );
    assert.deepEqual(
      { ...found },
      {
        userAgent: 'agent-1',
        referer: 'https://a.example/',
        country: 'de',
        acceptLanguage: 'fr-CH, fr;q=0.9',
        prefetch: false,
      },
    );
  });

  test('without a country header configured, none is read; absent headers are undefined', () => {
    const found = readClickHeaders(['cf-ipcountry', 'DE'], undefined);
    assert.deepEqual(
      { ...found },
      {
        userAgent: undefined,
        referer: undefined,
        country: undefined,
        acceptLanguage: undefined,
        prefetch: false,
      },
    );
  });

  test('each way a browser announces a prefetch or prerender', () => {
    for (const [name, value] of [
      ['Sec-Purpose', 'prefetch'],
      ['sec-purpose', 'prefetch;prerender'],
      ['Purpose', 'prefetch'],
      ['X-Moz', 'prefetch'],
      ['X-Purpose', 'preview'],
    ]) {
      assert.equal(readClickHeaders([name!, value!], undefined).prefetch, true, name);
    }
    assert.equal(readClickHeaders(['Purpose', 'navigate'], undefined).prefetch, false);
    assert.equal(readClickHeaders(['Purposes', 'prefetch'], undefined).prefetch, false);
  });
});
