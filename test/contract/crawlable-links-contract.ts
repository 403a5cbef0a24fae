import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_MS, HOUR_MS, makeLink, openFresh, type OpenStore } from './store-factories.js';

/** CrawlableLinks: robots.txt's codes (issue 22, ADR 0121). */
export function crawlableLinksContract(openStore: OpenStore): void {
  describe('listCrawlableCodes', () => {
    test("a domain's crawlable, active, unexpired links, newest first, at most limit", async (t) => {
      const store = await openFresh(t, openStore);
      const older = makeLink({ crawlable: true });
      const newer = makeLink({ crawlable: true, expiresAt: BASE_MS + HOUR_MS });
      const others = [
        makeLink(),
        makeLink({ crawlable: true, state: 'disabled' }),
        makeLink({ crawlable: true, state: 'deleted', deletedAt: BASE_MS }),
        makeLink({ crawlable: true, expiresAt: BASE_MS }),
        makeLink({ crawlable: true, domain: 'go.acme.test' }),
      ];
      for (const link of [older, ...others, newer]) await store.links.insertLink(link);
      const list = (domain: string, limit: number) =>
        store.crawlableLinks.listCrawlableCodes(domain, BASE_MS, limit);
      assert.deepEqual(await list('', 10), [newer.code, older.code]);
      assert.deepEqual(await list('', 1), [newer.code]);
      assert.deepEqual(await list('go.acme.test', 10), [others[4]?.code]);
      assert.deepEqual(await list('acme.link', 10), []);
    });
  });
}
