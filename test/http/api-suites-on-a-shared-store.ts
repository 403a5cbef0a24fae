import { mariadbReachable, whenMariadb } from '../support/require-mariadb.js';
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';

/**
 * The API suites that run again on each shared store (SPEC §4: one contract, every store):
 * their core in npm test (test/http/on-postgres.test.ts, on-mariadb.test.ts), all twenty in
 * the scale tier (test/scale/postgres-api.test.ts, mariadb-api.test.ts: npm test's 10
 * minutes on two cores did not hold them). With HOP_TEST_STORE set, every server these files
 * start gets a schema or a database of its own
 * (test/support/test-server.ts). Per-link analytics are left out: their tests drain the
 * embedded aggregator, which a shared store does not have (clicks on a shared store are
 * tested in test/e2e/scale-out.test.ts, test/e2e/regions.test.ts and the click-store
 * contract). The link-preview suite's click counts run here too: without NATS a flush folds
 * into the store.
 */
async function importApiSuites(which: 'all' | 'core'): Promise<void> {
  // The core: creates, reads, edits, errors, redirects and races, what a store decides most.
  await import('./links-happy.test.js');
  await import('./links-errors.test.js');
  await import('./redirect.test.js');
  await import('./concurrency.test.js');
  if (which === 'core') return;
  await import('./keys.test.js');
  await import('./key-scopes.test.js');
  await import('./hostile-input.test.js');
  await import('./code-strategies.test.js');
  await import('./console.test.js');
  await import('./link-counts.test.js');
  await import('./link-by-code.test.js');
  await import('./api-messages.test.js');
  await import('./links-bulk.test.js');
  await import('./tags.test.js');
  await import('./domain-redirects.test.js');
  await import('./link-previews.test.js');
  await import('./domains.test.js');
  // Issue 23: across all links, clicks flushed straight into the store (ADR 0126).
  await import('./all-links-analytics.test.js');
  await import('./webhooks.test.js');
  await import('./events.test.js');
}

const STORES = {
  postgres: { name: 'PostgreSQL', reachable: postgresReachable, when: whenPostgres },
  mariadb: { name: 'MariaDB', reachable: mariadbReachable, when: whenMariadb },
} as const;

/**
 * Registers `which` API suites on `store`, or, when its server does not answer, the failure
 * (CI) or the skip with its reason.
 */
export async function runApiSuitesOn(
  store: keyof typeof STORES,
  which: 'all' | 'core',
): Promise<void> {
  const { name, reachable, when } = STORES[store];
  if (await reachable()) {
    process.env['HOP_TEST_STORE'] = store;
    await importApiSuites(which);
  } else {
    await when(`the API on ${name} (needs ${name})`, () => undefined);
  }
}
