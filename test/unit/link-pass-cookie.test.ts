import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeLinkPassCookies, passCookieName } from '../../src/http/link-pass-cookie.js';

/** Issue 21: the right password sets a signed pass for 24 hours, bound to the link's version. */

const T0 = 1_800_000_000_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const SECRET = Buffer.alloc(32, 7);
const LINK = {
  linkId: '01JF0000000000000000000000',
  code: 'abc123',
  version: 3,
  passwordHash:
    'scrypt$8192$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
};

/** The request headers a browser sends back for a Set-Cookie value. */
function cookieHeaders(setCookie: string, ...others: string[]): string[] {
  const pair = setCookie.slice(0, setCookie.indexOf(';'));
  return ['Host', 'hop.test', 'Cookie', [...others, pair].join('; ')];
}

describe('link pass cookies', () => {
  const cookies = makeLinkPassCookies(SECRET);

  test('the Set-Cookie value: named after the link, scoped to its path, for 24 hours', () => {
    const setCookie = cookies.passCookieFor(LINK, T0, true);
    const [pair = '', ...attributes] = setCookie.split('; ');
    assert.ok(pair.startsWith(`${passCookieName(LINK.linkId)}=`));
    assert.match(pair, /=\d+\.[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(attributes, [
      'Path=/abc123',
      'Max-Age=86400',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
    assert.ok(!cookies.passCookieFor(LINK, T0, false).includes('Secure'));
  });

  test('a fresh pass is valid for this link until it expires', () => {
    const headers = cookieHeaders(cookies.passCookieFor(LINK, T0, false), 'other=1');
    assert.equal(cookies.hasValidPass(headers, LINK, T0), true);
    assert.equal(cookies.hasValidPass(headers, LINK, T0 + DAY_MS - 1000), true);
    assert.equal(cookies.hasValidPass(headers, LINK, T0 + DAY_MS), false);
  });

  test('another version, another password, another link: no pass', () => {
    const headers = cookieHeaders(cookies.passCookieFor(LINK, T0, false));
    assert.equal(cookies.hasValidPass(headers, { ...LINK, version: 4 }, T0), false);
    assert.equal(cookies.hasValidPass(headers, { ...LINK, passwordHash: 'scrypt$x' }, T0), false);
    const other = { ...LINK, linkId: '01JF0000000000000000000001' };
    assert.equal(cookies.hasValidPass(headers, other, T0), false);
    // Even under the other link's name, the value is this link's.
    const renamed = cookieHeaders(
      cookies.passCookieFor(LINK, T0, false).replace(LINK.linkId, other.linkId),
    );
    assert.equal(cookies.hasValidPass(renamed, other, T0), false);
  });

  test('tampered values and another secret: no pass', () => {
    const setCookie = cookies.passCookieFor(LINK, T0, false);
    const [name, rest = ''] = setCookie.slice(0, setCookie.indexOf(';')).split('=');
    const [expires = '', mac = ''] = rest.split('.');
    const flipped = mac.slice(0, 10) + (mac[10] === 'A' ? 'B' : 'A') + mac.slice(11);
    const later = String(Number(expires) + 3600);
    for (const value of [`${expires}.${flipped}`, `${later}.${mac}`, mac, `${expires}.`, '']) {
      const headers = ['Cookie', `${name}=${value}`];
      assert.equal(cookies.hasValidPass(headers, LINK, T0), false, value);
    }
    const stranger = makeLinkPassCookies(Buffer.alloc(32, 8));
    assert.equal(stranger.hasValidPass(cookieHeaders(setCookie), LINK, T0), false);
  });

  test('read from any Cookie line, in any case, among other cookies', () => {
    const pair = cookies.passCookieFor(LINK, T0, false).split(';')[0] ?? '';
    const headers = ['cookie', 'a=1', 'COOKIE', `b=2;${pair} ; c=3`];
    assert.equal(cookies.hasValidPass(headers, LINK, T0), true);
    assert.equal(cookies.hasValidPass(['Cookie', 'a=1', 'X-Cookie', pair], LINK, T0), false);
  });

  test('without a server secret the password hash still keys the pass', () => {
    const unkeyed = makeLinkPassCookies(null);
    const headers = cookieHeaders(unkeyed.passCookieFor(LINK, T0, false));
    assert.equal(unkeyed.hasValidPass(headers, LINK, T0), true);
    assert.equal(unkeyed.hasValidPass(headers, { ...LINK, passwordHash: 'scrypt$y' }, T0), false);
    assert.equal(cookies.hasValidPass(headers, LINK, T0), false);
  });
});
