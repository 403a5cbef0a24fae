import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forwardQuery } from '../../src/domain/smart/forward-query.js';
import { applyUtm, utmOf } from '../../src/domain/smart/utm.js';

/** Issue 21: forward_query and utm, the two edits a smart link makes to a destination's query. */

describe('forwardQuery', () => {
  test('an empty visitor query returns the destination itself', () => {
    const destination = 'https://example.com/a?x=1#top';
    assert.equal(forwardQuery(destination, ''), destination);
    assert.equal(forwardQuery(destination, '&&'), destination);
  });

  test('visitor pairs are appended in their order, as written', () => {
    assert.equal(
      forwardQuery('https://example.com/a', 'b=2&a=1&a=3&flag'),
      'https://example.com/a?b=2&a=1&a=3&flag',
    );
    assert.equal(
      forwardQuery('https://example.com/a?', 'q=a+b%20c'),
      'https://example.com/a?q=a+b%20c',
    );
  });

  test("a parameter the destination has keeps all of the destination's values", () => {
    assert.equal(
      forwardQuery('https://example.com/?ref=site&tag=a&tag=b', 'tag=x&ref=visitor&new=1&tag=y'),
      'https://example.com/?ref=site&tag=a&tag=b&new=1',
    );
    // Names compare decoded: `a%62` is `ab`, `x+y` is `x y`.
    assert.equal(
      forwardQuery('https://example.com/?ab=1&x%20y=2', 'a%62=9&x+y=9&z=9'),
      'https://example.com/?ab=1&x%20y=2&z=9',
    );
  });

  test('everything colliding returns the destination unchanged', () => {
    const destination = 'https://example.com/?a=1';
    assert.equal(forwardQuery(destination, 'a=2'), destination);
  });

  test('the fragment stays at the end', () => {
    assert.equal(forwardQuery('https://example.com/p#sec', 'a=1'), 'https://example.com/p?a=1#sec');
    assert.equal(
      forwardQuery('https://example.com/p?b=2#sec?x=1', 'a=1&b=3'),
      'https://example.com/p?b=2&a=1#sec?x=1',
    );
  });

  test('characters a URL may not carry are percent-encoded', () => {
    assert.equal(
      forwardQuery('https://example.com/', 'q=a b&r="<>"&s=ü&t=\u0001'),
      'https://example.com/?q=a%20b&r=%22%3C%3E%22&s=%C3%BC&t=%01',
    );
    assert.equal(
      forwardQuery('https://example.com/', 'q=\ud800'),
      'https://example.com/?q=%EF%BF%BD',
    );
  });
});

describe('utm', () => {
  test('sets the parameters, replacing existing ones in place', () => {
    assert.equal(
      applyUtm('https://example.com/p?utm_source=old&x=1#f', {
        source: 'news letter',
        medium: 'email',
      }),
      'https://example.com/p?utm_source=news%20letter&x=1&utm_medium=email#f',
    );
  });

  test('null removes a parameter (every copy of it); absent keys are left alone', () => {
    assert.equal(
      applyUtm('https://example.com/?utm_term=a&utm_term=b&utm_content=c', { term: null }),
      'https://example.com/?utm_content=c',
    );
    assert.equal(
      applyUtm('https://example.com/?utm_term=a', { term: null }),
      'https://example.com/',
    );
    const destination = 'https://example.com/?a=%20b';
    assert.equal(applyUtm(destination, {}), destination);
    assert.equal(applyUtm(destination, { source: null }), destination);
  });

  test('utmOf reads them back; none is null', () => {
    assert.equal(utmOf('https://example.com/'), null);
    assert.equal(utmOf('https://example.com/?utm_x=1&q=2'), null);
    assert.deepEqual(
      utmOf('https://example.com/?utm_source=a+b&utm_campaign=%C3%BC&utm_source=z'),
      {
        source: 'a b',
        campaign: 'ü',
      },
    );
  });

  test('apply → read back round-trips awkward values', () => {
    const utm = {
      source: 'a+b & c=d',
      medium: '100% ü',
      campaign: 'x#y?z',
      term: '🔑',
      content: ' spaced ',
    };
    const destination = applyUtm('https://example.com/path?keep=1#frag', utm);
    assert.deepEqual(utmOf(destination), utm);
    assert.ok(destination.endsWith('#frag'));
    assert.ok(URL.canParse(destination));
  });
});
