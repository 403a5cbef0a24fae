// npm test starts it early: a long file (scripts/run-tests.ts), not the last to end.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { MariaDbStore } from '../../src/adapters/mariadb/mariadb-store.js';
import { loadMariaDbMigrations } from '../../src/adapters/mariadb/mariadb-migrations.js';
import { mariadbStoreOptions, openFreshMariaDbStore } from '../support/fresh-stores.js';
import { dropDatabase, uniqueDatabase, whenMariadb } from '../support/require-mariadb.js';
import { runClickLogsContract } from './click-logs-contract.js';
import { runClickStoreContract } from './click-store-contract.js';
import { domainStoreContract } from './domain-store-contract.js';
import { runRedirectAllowanceContract } from './redirect-allowance-contract.js';
import { runStoreContract } from './store-contract.js';
import { makeLink } from './store-factories.js';

const options = mariadbStoreOptions;

/** A store on a fresh database, closed and dropped after the test. */
async function openDatabaseStore(
  t: TestContext,
  database = uniqueDatabase(),
): Promise<MariaDbStore> {
  const store = await MariaDbStore.open(options(database));
  t.after(async () => {
    await store.close();
    await dropDatabase(database);
  });
  return store;
}

await whenMariadb('MariaDbStore (needs MariaDB)', () => {
  runStoreContract('MariaDbStore', openFreshMariaDbStore);

  describe('Store contract: MariaDbStore domains', () => {
    domainStoreContract(openFreshMariaDbStore);
  });

  runClickStoreContract('MariaDbClickStore', async (t) => (await openDatabaseStore(t)).clicks);
  runClickLogsContract('MariaDbClickEventLog, MariaDbVisitLog', async (t) => openDatabaseStore(t));

  // Two stores, each with its own pools, on one database: two instances.
  runRedirectAllowanceContract('MariaDbRedirectAllowance', async (t) => {
    const database = uniqueDatabase();
    const first = await openDatabaseStore(t, database);
    const second = await MariaDbStore.open(options(database));
    t.after(() => second.close());
    return [first, second];
  });

  describe('MariaDbStore specifics', () => {
    const allVersions = loadMariaDbMigrations().map((migration) => migration.version);

    test('a fresh database gets every migration; a second store on it applies none', async (t) => {
      const database = uniqueDatabase();
      const first = await openDatabaseStore(t, database);
      assert.deepEqual(first.migrationsAppliedAtOpen, allVersions);
      const second = await MariaDbStore.open(options(database));
      t.after(() => second.close());
      assert.deepEqual(second.migrationsAppliedAtOpen, []);
    });

    test('instances starting together apply the migrations once', async (t) => {
      const database = uniqueDatabase();
      const stores = await Promise.all(
        Array.from({ length: 4 }, () => MariaDbStore.open(options(database))),
      );
      t.after(async () => {
        await Promise.all(stores.map((store) => store.close()));
        await dropDatabase(database);
      });
      const applied = stores.map((store) => store.migrationsAppliedAtOpen);
      assert.equal(applied.filter((versions) => versions.length > 0).length, 1);
      assert.deepEqual(applied.flat(), allVersions);
    });

    test('two stores on one database see each other: one code, one link', async (t) => {
      const database = uniqueDatabase();
      const server = await openDatabaseStore(t, database);
      const cli = await MariaDbStore.open(options(database));
      t.after(() => cli.close());
      const link = makeLink();
      assert.equal((await cli.links.insertLink(link)).kind, 'inserted');
      assert.deepEqual(await server.links.findLinkByCode('', link.code), link);
      assert.deepEqual(await server.links.insertLink(makeLink({ code: link.code })), {
        kind: 'code-taken',
      });
    });

    test('codes differing only in case are two links', async (t) => {
      const store = await openDatabaseStore(t);
      const lower = makeLink({ code: 'casecode' });
      const upper = makeLink({ code: 'CaseCode' });
      assert.equal((await store.links.insertLink(lower)).kind, 'inserted');
      assert.equal((await store.links.insertLink(upper)).kind, 'inserted');
      assert.equal(await store.links.findLinkByCode('', 'CASECODE'), null);
    });
  });
});
