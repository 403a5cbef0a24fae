/**
 * The API suites again, on PostgreSQL instead of SQLite (SPEC §4: one contract, two
 * stores): every server these files start gets a schema of its own on the shared
 * PostgreSQL (test/support/test-server.ts). Per-link analytics are left out: their tests drain the
 * embedded aggregator, which PostgreSQL does not have (clicks on PostgreSQL are tested in
 * test/e2e/scale-out.test.ts and by the click-store contract). The link-preview suite's
 * click counts run here too: on PostgreSQL without NATS a flush folds into the store.
 */
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';

if (await postgresReachable()) {
  process.env['HOP_TEST_STORE'] = 'postgres';
  await import('./links-happy.test.js');
  await import('./links-errors.test.js');
  await import('./redirect.test.js');
  await import('./keys.test.js');
  await import('./key-scopes.test.js');
  await import('./hostile-input.test.js');
  await import('./concurrency.test.js');
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
  // Issue 23: across all links, clicks flushed straight into PostgreSQL (ADR 0126).
  await import('./all-links-analytics.test.js');
  await import('./webhooks.test.js');
  await import('./events.test.js');
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenPostgres('the API on PostgreSQL (needs PostgreSQL)', () => undefined);
}
