/**
 * The API suites that run again on each shared store (SPEC §4: one contract, every store):
 * on-postgres.test.ts and on-mariadb.test.ts import them after setting HOP_TEST_STORE, so
 * every server these files start gets a schema or a database of its own
 * (test/support/test-server.ts). Per-link analytics are left out: their tests drain the
 * embedded aggregator, which a shared store does not have (clicks on a shared store are
 * tested in test/e2e/scale-out.test.ts, test/e2e/regions.test.ts and the click-store
 * contract). The link-preview suite's click counts run here too: without NATS a flush folds
 * into the store.
 */
export async function importApiSuitesOnASharedStore(which: 'all' | 'core' = 'all'): Promise<void> {
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
