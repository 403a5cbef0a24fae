import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import {
  checkAnswers,
  describeRules,
  destinationOf,
  FIVE_RULES,
  makeLinksSmart,
} from '../../bench/support/smart-links.js';
import { makeLink } from '../contract/store-factories.js';
import { tempDataDir } from '../support/temp-data.js';

/** The `smart` bench scenario's store edit and its check (issue 21's five-rule figure). */
describe('bench smart links', { timeout: 10_000 }, () => {
  test('the named links become five-rule smart links at a new version; the others stay plain', async (t) => {
    const dir = tempDataDir(t);
    const [made, left] = [makeLink(), makeLink()];
    const store = SqliteStore.open({ file: join(dir, 'hop.db') });
    await store.links.insertLink(made);
    await store.links.insertLink(left);
    await store.close();

    makeLinksSmart(dir, [made.code], FIVE_RULES);
    assert.equal(destinationOf(dir, made.code), made.destination);

    const reopened = SqliteStore.open({ file: join(dir, 'hop.db') });
    t.after(() => reopened.close());
    const smart = await reopened.links.findLinkByCode('', made.code);
    const plain = await reopened.links.findLinkByCode('', left.code);
    assert.deepEqual(smart?.smart, FIVE_RULES);
    assert.equal(smart?.version, made.version + 1);
    assert.equal(plain?.smart, null);
    assert.equal(plain?.version, left.version);
  });

  test('a code missing from the store fails the edit', async (t) => {
    const dir = tempDataDir(t);
    await SqliteStore.open({ file: join(dir, 'hop.db') }).close();
    assert.throws(() => makeLinksSmart(dir, ['nosuchcode'], FIVE_RULES), /0 of 1 links/);
  });

  test('the rule set is named condition by condition, in order', () => {
    assert.equal(
      describeRules(FIVE_RULES),
      'device ["mobile"]; language ["de"]; country ["JP"]; query {"src":"qr"}; after 2030-01-01T00:00:00.000Z',
    );
  });

  test('the check passes a matching answer and names what differs in another', async (t) => {
    const server = createServer((request, response) => {
      response.writeHead(302, {
        location: request.url === '/a' ? 'https://example.com/' : 'https://other.example/',
        'cache-control': 'private, no-store',
      });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const { port } = server.address() as AddressInfo;
    await checkAnswers(port, {}, [
      { path: '/a', location: 'https://example.com/', cacheControl: 'private, no-store' },
    ]);
    await assert.rejects(
      checkAnswers(port, {}, [{ path: '/b', location: 'https://example.com/' }]),
      /location https:\/\/other\.example\/, not https:\/\/example\.com\//,
    );
    await assert.rejects(
      checkAnswers(port, {}, [
        { path: '/a', location: 'https://example.com/', cacheControl: 'public, max-age=60' },
      ]),
      /cache-control private, no-store, not public, max-age=60/,
    );
  });
});
