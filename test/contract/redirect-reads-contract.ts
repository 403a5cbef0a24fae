import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { RedirectTarget } from '../../src/domain/redirect-target.js';
import {
  BASE_MS,
  HOUR_MS,
  makeCode,
  makeLink,
  openFresh,
  type OpenStore,
} from './store-factories.js';

/** What the redirect read must return for `link`: the fields a redirect needs, no more. */
function targetOf(link: Link): RedirectTarget {
  return {
    linkId: link.id,
    code: link.code,
    version: link.version,
    state: link.state,
    expiresAt: link.expiresAt,
    status: link.statusCode,
    location: link.destination,
    smart: link.smart,
    crawlable: link.crawlable,
  };
}

/** RedirectReads: the redirect's store read on a cache miss (SPEC §5). */
export function redirectReadsContract(openStore: OpenStore): void {
  describe('findRedirectByCode', () => {
    test('answers what a redirect needs of the link holding the code, in any state', async (t) => {
      const store = await openFresh(t, openStore);
      const links: Link[] = [
        makeLink({ statusCode: 301, expiresAt: BASE_MS + HOUR_MS, version: 3 }),
        makeLink({ statusCode: 302, state: 'disabled' }),
        makeLink({ statusCode: 307, state: 'expired', expiresAt: BASE_MS - 1 }),
        makeLink({ statusCode: 308, state: 'deleted', deletedAt: BASE_MS, custom: true }),
      ];
      for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      for (const link of links) {
        assert.deepEqual(await store.redirects.findRedirectByCode('', link.code), targetOf(link));
        assert.deepEqual(
          await store.redirects.findRedirectByCode('', link.code, { primary: true }),
          targetOf(link),
        );
      }
    });

    test('an unknown code is null; codes are case-sensitive', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ code: 'RedirectCase' });
      await store.links.insertLink(link);
      assert.equal(await store.redirects.findRedirectByCode('', makeCode()), null);
      assert.equal(await store.redirects.findRedirectByCode('', 'redirectcase'), null);
      assert.deepEqual(
        await store.redirects.findRedirectByCode('', 'RedirectCase'),
        targetOf(link),
      );
    });

    test('a replaced link is read as it now is', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      await store.links.insertLink(link);
      const next: Link = {
        ...link,
        destination: 'https://example.test/moved',
        statusCode: 307,
        expiresAt: BASE_MS + HOUR_MS,
        version: 2,
      };
      assert.equal(await store.links.replaceLink(next, 1), true);
      assert.deepEqual(await store.redirects.findRedirectByCode('', link.code), targetOf(next));
    });

    test('a code holding U+0000 (a hostile path) finds nothing and never fails', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      await store.links.insertLink(link);
      assert.equal(await store.redirects.findRedirectByCode('', `${link.code}\u0000`), null);
    });
  });
}
