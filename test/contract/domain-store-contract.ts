import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { DEFAULT_DOMAIN, type LinkDomain } from '../../src/domain/link-domain.js';
import { BASE_MS, makeLink, openFresh, type OpenStore } from './store-factories.js';

/** A domain with a host no other test uses; `overrides` replace any field. */
function makeDomain(overrides: Partial<LinkDomain> = {}): LinkDomain {
  return {
    host: `d${randomBytes(4).toString('hex')}.example.com`,
    rootRedirect: 'https://acme.example.org/',
    notFoundRedirect: null,
    https: true,
    createdAt: BASE_MS,
    updatedAt: BASE_MS,
    ...overrides,
  };
}

/**
 * The DomainStore port (issue 22): hosts are unique, listing is by host, and a domain goes
 * only while no link (in any state but purged) is on it, checked in the same step.
 */
export function domainStoreContract(openStore: OpenStore): void {
  describe('DomainStore', () => {
    test('insertDomain then findDomain round-trips every field; a second insert is false', async (t) => {
      const { domains } = await openFresh(t, openStore);
      const domain = makeDomain({ notFoundRedirect: 'https://acme.example.org/404' });
      const plain = makeDomain({ rootRedirect: null, https: false, createdAt: BASE_MS + 1 });

      assert.equal(await domains.insertDomain(domain), true);
      assert.equal(await domains.insertDomain(plain), true);
      assert.deepEqual(await domains.findDomain(domain.host), domain);
      assert.deepEqual(await domains.findDomain(plain.host), plain);

      const again = makeDomain({ host: domain.host, rootRedirect: null, https: false });
      assert.equal(await domains.insertDomain(again), false);
      assert.deepEqual(await domains.findDomain(domain.host), domain, 'the first one stays');
      assert.equal(await domains.findDomain(makeDomain().host), null);
    });

    test("the default domain's row (host '') is a row like any other", async (t) => {
      const { domains } = await openFresh(t, openStore);
      const fallback = makeDomain({ host: DEFAULT_DOMAIN, rootRedirect: null });
      assert.equal(await domains.insertDomain(fallback), true);
      assert.equal(await domains.insertDomain(fallback), false);
      assert.deepEqual(await domains.findDomain(DEFAULT_DOMAIN), fallback);
      const changed = { ...fallback, notFoundRedirect: 'https://acme.example.org/', updatedAt: 9 };
      assert.equal(await domains.updateDomain(changed), true);
      assert.deepEqual(await domains.findDomain(DEFAULT_DOMAIN), changed);
    });

    test('listDomains: every domain, by host', async (t) => {
      const { domains } = await openFresh(t, openStore);
      const [a, b, c] = ['a', 'b', 'c'].map((first) =>
        makeDomain({ host: `${first}${randomBytes(3).toString('hex')}.example.com` }),
      );
      // Inserted out of order: the order is the hosts', not the insertion's.
      for (const domain of [b, c, a]) assert.equal(await domains.insertDomain(domain!), true);
      // A migration may have made the default domain's row: the others are the contract.
      const listed = (await domains.listDomains()).filter((d) => d.host !== DEFAULT_DOMAIN);
      assert.deepEqual(listed, [a, b, c]);
    });

    test('updateDomain replaces every field but the host; false for an unknown host', async (t) => {
      const { domains } = await openFresh(t, openStore);
      const domain = makeDomain();
      const bystander = makeDomain();
      await domains.insertDomain(domain);
      await domains.insertDomain(bystander);
      const changed: LinkDomain = {
        ...domain,
        rootRedirect: null,
        notFoundRedirect: 'https://acme.example.org/gone',
        https: false,
        updatedAt: BASE_MS + 5000,
      };
      assert.equal(await domains.updateDomain(changed), true);
      assert.deepEqual(await domains.findDomain(domain.host), changed);
      assert.deepEqual(await domains.findDomain(bystander.host), bystander);
      assert.equal(await domains.updateDomain(makeDomain()), false);
      const stranger = makeDomain();
      assert.equal(await domains.findDomain(stranger.host), null, 'an update inserts nothing');
    });

    test('deleteDomain: deleted once, then not-found; an unknown host is not-found', async (t) => {
      const { domains } = await openFresh(t, openStore);
      const domain = makeDomain();
      await domains.insertDomain(domain);
      assert.equal(await domains.deleteDomain(domain.host), 'deleted');
      assert.equal(await domains.findDomain(domain.host), null);
      assert.equal(await domains.deleteDomain(domain.host), 'not-found');
      assert.equal(await domains.deleteDomain(makeDomain().host), 'not-found');
      // Gone for good: the host can be added again.
      assert.equal(await domains.insertDomain(domain), true);
    });

    test('deleteDomain is in-use while a link is on it, in any state, tombstones included', async (t) => {
      const store = await openFresh(t, openStore);
      const { domains } = store;
      const [active, disabled, deleted, empty] = [
        makeDomain(),
        makeDomain(),
        makeDomain(),
        makeDomain(),
      ];
      for (const domain of [active, disabled, deleted, empty]) await domains.insertDomain(domain);
      const links = [
        makeLink({ domain: active.host }),
        makeLink({ domain: disabled.host, state: 'disabled', version: 2 }),
        makeLink({ domain: deleted.host, state: 'deleted', deletedAt: BASE_MS, version: 2 }),
      ];
      for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      for (const domain of [active, disabled, deleted]) {
        assert.equal(await domains.deleteDomain(domain.host), 'in-use', domain.host);
        assert.deepEqual(await domains.findDomain(domain.host), domain, 'nothing is deleted');
      }
      // A link on the default domain or on another domain does not hold this one.
      assert.equal((await store.links.insertLink(makeLink())).kind, 'inserted');
      assert.equal(await domains.deleteDomain(empty.host), 'deleted');
    });

    test('a purged link holds its domain no longer', async (t) => {
      const store = await openFresh(t, openStore);
      const domain = makeDomain();
      await store.domains.insertDomain(domain);
      const gone = makeLink({
        domain: domain.host,
        state: 'deleted',
        deletedAt: BASE_MS - 1000,
        updatedAt: BASE_MS - 1000,
        version: 2,
      });
      // SQLite keeps back the row inserted last from reclaiming (sweep-queries.ts): one more.
      const last = makeLink();
      await store.links.insertLink(gone);
      await store.links.insertLink(last);
      assert.equal(await store.domains.deleteDomain(domain.host), 'in-use');
      const reclaimable = await store.sweep.reclaimableLinks(BASE_MS, 10);
      assert.deepEqual(
        reclaimable.map((link) => link.id),
        [gone.id],
      );
      assert.equal(await store.sweep.deleteReclaimed([{ id: gone.id, version: 2 }]), 1);
      assert.equal(await store.domains.deleteDomain(domain.host), 'deleted');
    });
  });
}
