import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '../../src/ports/store.js';
import { apiKeyStoreContract } from './api-key-store-contract.js';
import { bulkAnswersContract } from './bulk-answers-contract.js';
import { clickAnalyticsContract } from './click-analytics-contract.js';
import { codeScanContract } from './code-scan-contract.js';
import { crawlableLinksContract } from './crawlable-links-contract.js';
import { idempotencyContract } from './idempotency-contract.js';
import { linkCensusContract } from './link-census-contract.js';
import { linkEventLogContract } from './link-event-log-contract.js';
import { webhookStoreContract } from './webhook-store-contract.js';
import { linkRepositoryContract } from './link-repository-contract.js';
import { listLinksContract } from './list-links-contract.js';
import { listLinksCountContract } from './list-links-count-contract.js';
import { listLinksSortContract } from './list-links-sort-contract.js';
import { redirectReadsContract } from './redirect-reads-contract.js';
import { openFresh, type OpenStore } from './store-factories.js';
import { sweepQueriesContract } from './sweep-queries-contract.js';
import { sequenceContract } from './sequence-contract.js';
import { tagQueriesContract } from './tag-queries-contract.js';

export type { OpenStore } from './store-factories.js';

/**
 * The Store port's contract (SPEC §4), one suite for every adapter: SQLite now, PostgreSQL
 * later. `openStore` must give each test a fresh, empty store with every migration applied
 * at open; its `cleanup` closes the store and removes whatever it created.
 */
export function runStoreContract(
  name: string,
  openStore: () => Promise<{ store: Store; cleanup: () => Promise<void> }>,
): void {
  const open: OpenStore = openStore;
  describe(`Store contract: ${name}`, () => {
    describe('lifecycle', () => {
      test('ping resolves', async (t) => {
        const store = await openFresh(t, open);
        await store.ping();
      });

      // That a new database gets every migration is each store's own test (its specifics):
      // a store given here may be on a database emptied for reuse, already migrated.
      test('a store lists the migrations it applied at open, in order, once each', async (t) => {
        const store = await openFresh(t, open);
        const versions = store.migrationsAppliedAtOpen;
        for (const version of versions) assert.ok(Number.isSafeInteger(version) && version > 0);
        assert.deepEqual(
          [...versions].sort((a, b) => a - b),
          versions,
          'migrations are applied in version order',
        );
        assert.equal(new Set(versions).size, versions.length);
      });

      test('migrate after open applies nothing', async (t) => {
        const store = await openFresh(t, open);
        assert.deepEqual(await store.migrate(), []);
        assert.deepEqual(await store.migrate(), []);
        await store.ping();
      });
    });

    // One suite per port; LinkRepository's idempotency claims and listing have their own.
    linkRepositoryContract(open);
    idempotencyContract(open);
    listLinksContract(open);
    listLinksSortContract(open);
    listLinksCountContract(open);
    crawlableLinksContract(open);
    tagQueriesContract(open);
    clickAnalyticsContract(open);
    redirectReadsContract(open);
    codeScanContract(open);
    sweepQueriesContract(open);
    apiKeyStoreContract(open);
    sequenceContract(open);
    linkCensusContract(open);
    bulkAnswersContract(open);
    linkEventLogContract(open);
    webhookStoreContract(open);
  });
}
