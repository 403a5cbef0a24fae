import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { Store } from '../../src/ports/store.js';
import { makeCode, makeLink, openFresh, type OpenStore } from './store-factories.js';

/** LinkCodeScan: every code the store holds, in pages, and the codes added since. */
export function codeScanContract(openStore: OpenStore): void {
  describe('scanCodes', () => {
    /** Every code from `cursor` on, a page of `limit` at a time; and the last cursor. */
    async function scanAll(store: Store, cursor: string | null, limit: number) {
      const codes: string[] = [];
      for (;;) {
        const page = await store.codeScan.scanCodes(cursor, limit);
        assert.ok(page.codes.length <= limit);
        codes.push(...page.codes);
        cursor = page.cursor;
        if (page.codes.length < limit) return { codes, cursor };
      }
    }

    test('the estimate is 0 for an empty store and never below the links it holds', async (t) => {
      const store = await openFresh(t, openStore);
      assert.equal(await store.codeScan.estimateCodeCount(), 0);
      const links = Array.from({ length: 12 }, (_, i) =>
        makeLink({ state: i % 4 === 0 ? 'deleted' : 'active' }),
      );
      for (const link of links) await store.links.insertLink(link);
      const estimate = await store.codeScan.estimateCodeCount();
      assert.ok(Number.isSafeInteger(estimate), `a whole number: ${estimate}`);
      // An upper bound may count rows since gone (SQLite's and MariaDB's read their last
      // id); not so far above that a filter sized by it would waste its room.
      assert.ok(estimate >= links.length && estimate <= 2 * links.length, `estimate ${estimate}`);
    });

    test('an empty store scans to nothing; links added later are found from its cursor', async (t) => {
      const store = await openFresh(t, openStore);
      const empty = await store.codeScan.scanCodes(null, 10);
      assert.deepEqual(empty.codes, []);
      const link = makeLink();
      await store.links.insertLink(link);
      assert.deepEqual((await scanAll(store, empty.cursor, 10)).codes, [link.code]);
    });

    test('pages return every code once, tombstones included', async (t) => {
      const store = await openFresh(t, openStore);
      const links = Array.from({ length: 25 }, (_, i) =>
        makeLink({ state: i % 5 === 0 ? 'deleted' : 'active' }),
      );
      for (const link of links) await store.links.insertLink(link);
      const { codes } = await scanAll(store, null, 7);
      assert.deepEqual([...codes].sort(), links.map((link) => link.code).sort());
    });

    test('links added while a first scan pages through are found by the scan or the next', async (t) => {
      const store = await openFresh(t, openStore);
      const before = Array.from({ length: 10 }, () => makeLink());
      for (const link of before) await store.links.insertLink(link);
      const seen = new Set<string>();
      const firstPage = await store.codeScan.scanCodes(null, 4);
      for (const code of firstPage.codes) seen.add(code);
      // Both ends of the code order, so one lands behind the scan and one ahead of it.
      const during = [makeLink({ code: '0-early' }), makeLink({ code: 'zz-late' })];
      for (const link of during) await store.links.insertLink(link);
      const rest = await scanAll(store, firstPage.cursor, 4);
      for (const code of rest.codes) seen.add(code);
      const next = await scanAll(store, rest.cursor, 4);
      for (const code of next.codes) seen.add(code);
      for (const link of [...before, ...during]) assert.ok(seen.has(link.code), link.code);
    });

    test('a later scan from the cursor finds exactly the links inserted since', async (t) => {
      const store = await openFresh(t, openStore);
      const before = Array.from({ length: 5 }, () => makeLink());
      for (const link of before) await store.links.insertLink(link);
      const first = await scanAll(store, null, 100);
      assert.equal(first.codes.length, 5);
      // The port lets a pass repeat codes of earlier ones (on PostgreSQL, while any other
      // transaction of the cluster is older than them: other test files run beside this
      // one), never invent or lose one. What is new must be exactly what was inserted.
      const earlier = new Set(before.map((link) => link.code));
      const newIn = (codes: readonly string[]) => codes.filter((code) => !earlier.has(code));

      const nothingNew = await store.codeScan.scanCodes(first.cursor, 100);
      assert.deepEqual(newIn(nothingNew.codes), []);

      const after = [makeLink({ custom: true, code: makeCode() }), makeLink()];
      await store.links.insertLink(after[0] as Link);
      await store.links.importLinks([after[1] as Link]);
      const second = await scanAll(store, nothingNew.cursor, 100);
      assert.deepEqual(
        newIn(second.codes),
        after.map((link) => link.code),
      );
    });
  });
}
