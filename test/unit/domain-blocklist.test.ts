import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainBlocklist } from '../../src/domain/domain-blocklist.js';
import { parseBlocklist } from '../../src/main/blocklist-file.js';

test('a listed domain blocks itself and its subdomains, in stored destinations', () => {
  const list = new DomainBlocklist(
    parseBlocklist('# spam\nEvil.Example  # shouting\n\nbücher.example\n'),
  );
  assert.equal(list.size, 2);
  assert.equal(list.blocksUrl('https://evil.example/'), true);
  assert.equal(list.blocksUrl('https://a.b.evil.example:8443/x?y#z'), true);
  assert.equal(list.blocksUrl('http://xn--bcher-kva.example/'), true);
  assert.equal(list.blocksUrl('https://notevil.example/'), false);
  assert.equal(list.blocksUrl('https://evil.example.com/'), false);
  assert.equal(list.blocksUrl('https://example/evil.example'), false);
  assert.equal(list.blocksUrl('https://[2001:db8::1]/'), false);
  assert.equal(list.blocksUrl('not a url'), false);
  list.replace([]);
  assert.equal(list.blocksUrl('https://evil.example/'), false);
});
