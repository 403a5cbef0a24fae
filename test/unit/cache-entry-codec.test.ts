import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeEntry, encodeEntry } from '../../src/adapters/redis/cache-entry-codec.js';
import { cachedLinkOf } from '../../src/domain/cache-entry.js';
import { NO_SMART_OPTIONS, type SmartOptions } from '../../src/domain/smart/smart-options.js';

const LINK_ID = '01JCLICKSLINKID0000000000A';
const SMART: SmartOptions = {
  ...NO_SMART_OPTIONS,
  rules: [{ destination: 'https://example.com/m', statusCode: null, when: { os: ['ios'] } }],
  passwordHash: 'scrypt$8192$8$1$c2FsdA$aGFzaA',
};

/** How a build from before smart links read a value: `…|status|linkId|location`. */
function decodeAsBeforeSmartLinks(value: string): { linkId: string; location: string } | null {
  const parts = value.split('|');
  const linkId = parts[4] ?? '';
  if (!/^[0-9A-Za-z-]{1,64}$/.test(linkId)) return null;
  return { linkId, location: parts.slice(5).join('|') };
}

const smartEntry = (location: string) =>
  cachedLinkOf(LINK_ID, 'abc1234', 3, 'active', null, 302, location, SMART);

describe('L2 values of smart links (ADR 0114)', () => {
  test('a smart entry travels whole, a plain one keeps its older shape', () => {
    const smart = smartEntry('https://x.test/a|b');
    const back = decodeEntry(encodeEntry(smart), 'abc1234');
    assert.ok(back?.found === true);
    assert.equal(back.location, 'https://x.test/a|b');
    assert.equal(back.linkId, LINK_ID);
    assert.deepEqual(back.smart?.options, SMART);
    const plain = cachedLinkOf(LINK_ID, 'abc1234', 3, 'active', null, 302, 'https://x.test/');
    assert.equal(encodeEntry(plain), `3|active||302|${LINK_ID}|https://x.test/`);
  });

  test('a build from before smart links reads a smart value as a miss, never as a redirect', () => {
    const smart = smartEntry('https://x.test/');
    const value = encodeEntry(smart);
    assert.equal(decodeAsBeforeSmartLinks(value), null);
  });

  test('options this build cannot prepare are a miss, not a failure', () => {
    const unreadable = `3|active||302|=${encodeURIComponent(JSON.stringify({ rules: 7 }))}|${LINK_ID}|https://x.test/`;
    assert.equal(decodeEntry(unreadable, 'abc1234'), undefined);
    assert.equal(
      decodeEntry(`3|active||302|=%E0%A4%A|${LINK_ID}|https://x.test/`, 'abc1234'),
      undefined,
    );
  });
});
