import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseDestination, compileSmartLink } from '../../src/domain/smart/choose-destination.js';
import { NO_SMART_OPTIONS, type SmartOptions } from '../../src/domain/smart/smart-options.js';
import { makeVisitor } from '../support/smart-visitor.js';

/** Issue 21: rules first, then variants (sticky), then the link's own; forwarding on top. */

const LINK_ID = '01JF0000000000000000000000';
const OWN = 'https://example.com/own';

const options: SmartOptions = {
  ...NO_SMART_OPTIONS,
  rules: [{ destination: 'https://example.com/de', statusCode: 307, when: { country: ['DE'] } }],
  variants: [
    { destination: 'https://example.com/a?x=1', weight: 50 },
    { destination: 'https://example.com/b', weight: 50 },
  ],
  forwardQuery: true,
};

const noCookie = (): string | undefined => undefined;

describe('chooseDestination', () => {
  const link = compileSmartLink(LINK_ID, options);

  test('a matching rule wins, with its status, and draws no variant', () => {
    const choice = chooseDestination(
      link,
      OWN,
      makeVisitor({ country: 'DE', query: 'q=1' }),
      noCookie,
      () => 0,
    );
    assert.deepEqual(choice, {
      destination: 'https://example.com/de?q=1',
      statusCode: 307,
      variantCookie: null,
    });
  });

  test('no rule: a fresh draw asks for a cookie, and the cookie keeps the visitor there', () => {
    const first = chooseDestination(
      link,
      OWN,
      makeVisitor({ query: 'x=2&y=3' }),
      noCookie,
      () => 0.9,
    );
    assert.equal(first.destination, 'https://example.com/b?x=2&y=3');
    assert.equal(first.statusCode, null);
    assert.notEqual(first.variantCookie, null);
    const header = `${link.variantCookieName}=${first.variantCookie ?? ''}`;
    const again = chooseDestination(
      link,
      OWN,
      makeVisitor(),
      () => header,
      () => 0,
    );
    assert.deepEqual(again, {
      destination: 'https://example.com/b',
      statusCode: null,
      variantCookie: null,
    });
  });

  test("forwarding keeps the variant's own parameters", () => {
    const choice = chooseDestination(
      link,
      OWN,
      makeVisitor({ query: 'x=2&y=3' }),
      noCookie,
      () => 0,
    );
    assert.equal(choice.destination, 'https://example.com/a?x=1&y=3');
  });

  test('no rule and no variants: the link destination, the cookie header never read', () => {
    const plainish = compileSmartLink(LINK_ID, { ...NO_SMART_OPTIONS, rules: options.rules });
    let cookieReads = 0;
    const choice = chooseDestination(
      plainish,
      OWN,
      makeVisitor({ country: 'FR', query: 'a=1' }),
      () => (cookieReads++, undefined),
      () => 0,
    );
    assert.deepEqual(choice, { destination: OWN, statusCode: null, variantCookie: null });
    assert.equal(cookieReads, 0);
  });

  test('links with the same conditions share one compiled list, each keeping its destinations (ADR 0146)', () => {
    const toDe = compileSmartLink(LINK_ID, { ...NO_SMART_OPTIONS, rules: options.rules });
    const toAt = compileSmartLink('01JF0000000000000000000001', {
      ...NO_SMART_OPTIONS,
      rules: [
        { destination: 'https://example.com/at', statusCode: null, when: { country: ['DE'] } },
      ],
    });
    const toFr = compileSmartLink(LINK_ID, {
      ...NO_SMART_OPTIONS,
      rules: [
        { destination: 'https://example.com/de', statusCode: null, when: { country: ['FR'] } },
      ],
    });
    assert.equal(toAt.compiledRules, toDe.compiledRules, 'the same conditions: one list');
    assert.notEqual(toFr.compiledRules, toDe.compiledRules, 'other conditions: their own');
    const german = makeVisitor({ country: 'DE' });
    const destinationOf = (link: typeof toDe) =>
      chooseDestination(link, OWN, german, noCookie, () => 0).destination;
    assert.equal(destinationOf(toDe), 'https://example.com/de');
    assert.equal(destinationOf(toAt), 'https://example.com/at');
    assert.equal(destinationOf(toFr), OWN);
  });
});
