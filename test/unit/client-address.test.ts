import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { clientSubject, makeClientAddressOf, makeClientOf } from '../../src/http/client-address.js';
import { parseTrustedProxies, ParseError } from '../../src/config/parsers.js';

function requestFrom(peer: string, forwardedFor?: string): IncomingMessage {
  const headers: Record<string, string> = {};
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers,
  } as unknown as IncomingMessage;
}

describe('who the client is', () => {
  test('without trusted proxies the socket decides and X-Forwarded-For is ignored', () => {
    const clientOf = makeClientOf([]);
    assert.equal(clientOf(requestFrom('203.0.113.7', '198.51.100.1')), '203.0.113.7');
  });

  test('a trusted proxy is believed; the nearest untrusted address in the chain is the client', () => {
    const clientOf = makeClientOf(['10.0.0.0/8']);
    assert.equal(clientOf(requestFrom('10.0.0.2', '198.51.100.1')), '198.51.100.1');
    // A client that prepends its own header gains nothing: the proxy appended the truth.
    assert.equal(clientOf(requestFrom('10.0.0.2', '1.2.3.4, 198.51.100.1')), '198.51.100.1');
    // Through two trusted proxies.
    assert.equal(clientOf(requestFrom('10.0.0.2', '198.51.100.1, 10.0.0.3')), '198.51.100.1');
    // An untrusted peer's header is ignored.
    assert.equal(clientOf(requestFrom('203.0.113.7', '198.51.100.1')), '203.0.113.7');
  });

  test('IPv4-mapped addresses are IPv4; IPv6 clients count by their /64', () => {
    assert.equal(clientSubject('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientSubject('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(clientSubject('2001:db8:1:2::9'), '2001:db8:1:2::/64');
    assert.equal(clientSubject('::1'), '0:0:0:0::/64');
    assert.equal(clientSubject('192.0.2.1'), '192.0.2.1');
    assert.equal(clientSubject(''), '');
  });

  test('the whole address (issue 21: geolocation, ip rules): no /64, IPv4-mapped unmapped', () => {
    const addressOf = makeClientAddressOf([]);
    assert.equal(addressOf(requestFrom('2001:db8:1:2:3:4:5:6')), '2001:db8:1:2:3:4:5:6');
    assert.equal(addressOf(requestFrom('::ffff:192.0.2.1')), '192.0.2.1');
    // Only a four-part decimal is unmapped: no leading zero, no part over 255, four parts.
    for (const notDecimal of [
      '::ffff:01.2.3.4',
      '::ffff:256.1.1.1',
      '::ffff:1.2.3',
      '::ffff:c000:201',
    ]) {
      assert.equal(addressOf(requestFrom(notDecimal)), notDecimal);
    }
    assert.equal(addressOf(requestFrom('203.0.113.7', '198.51.100.1')), '203.0.113.7');
    const proxied = makeClientAddressOf(['10.0.0.0/8']);
    assert.equal(proxied(requestFrom('10.0.0.2', '1.2.3.4, 2001:db8::9')), '2001:db8::9');
    assert.equal(proxied(requestFrom('::ffff:10.0.0.2', '::ffff:198.51.100.1')), '198.51.100.1');
    // A click keeps the socket's own string; its lookup unmaps it at the flush (ADR 0109).
    const kept = makeClientAddressOf([], { keepMapped: true });
    assert.equal(kept(requestFrom('::ffff:192.0.2.1')), '::ffff:192.0.2.1');
    const keptProxied = makeClientAddressOf(['10.0.0.0/8'], { keepMapped: true });
    assert.equal(keptProxied(requestFrom('10.0.0.2', '198.51.100.1')), '198.51.100.1');
  });

  test('HOP_TRUST_PROXY accepts addresses, CIDRs and range names, nothing else', () => {
    assert.deepEqual(parseTrustedProxies('10.0.0.1, 10.1.0.0/16,loopback, fd00::/8'), [
      '10.0.0.1',
      '10.1.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
    for (const bad of ['', ',', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/2', 'fd00::/129']) {
      assert.throws(() => parseTrustedProxies(bad), ParseError, bad);
    }
  });
});
