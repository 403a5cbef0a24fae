import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openFreshMariaDbStore } from '../support/fresh-stores.js';
import { whenMariadb } from '../support/require-mariadb.js';
import { BASE_MS, makeLink, openFresh } from './store-factories.js';

await whenMariadb('MariaDbLinkChangeFeed (needs MariaDB)', () => {
  test("the change feed follows the link events: every change's link key and version, in order", async (t) => {
    const store = await openFresh(t, openFreshMariaDbStore);
    const feed = store.linkChanges;
    assert.ok(feed !== null);
    const start = await feed.latest();
    const plain = makeLink();
    const elsewhere = makeLink({ domain: 'go.example.test' });
    await store.domains.insertDomain({
      host: 'go.example.test',
      rootRedirect: null,
      notFoundRedirect: null,
      https: true,
      createdAt: BASE_MS,
      updatedAt: BASE_MS,
    });
    assert.equal((await store.links.insertLink(plain)).kind, 'inserted');
    assert.equal((await store.links.insertLink(elsewhere)).kind, 'inserted');
    const edited = { ...plain, destination: 'https://example.test/moved', version: 2 };
    assert.ok(await store.links.replaceLink(edited, 1));
    const read = await feed.changesAfter(start, 10);
    assert.deepEqual(read.changes, [
      { code: plain.code, version: 1 },
      { code: `go.example.test/${elsewhere.code}`, version: 1 },
      { code: plain.code, version: 2 },
    ]);
    assert.ok(read.cursor > start);
    assert.deepEqual(await feed.changesAfter(read.cursor, 10), {
      changes: [],
      cursor: read.cursor,
    });
    assert.equal(await feed.latest(), read.cursor);
    // The outbox's own retention deletes link events; the feed never does.
    assert.equal(await feed.forgetBefore(Number.MAX_SAFE_INTEGER, 100), 0);
  });
});
