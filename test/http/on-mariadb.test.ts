/**
 * The API suites again, on MariaDB (issue 25: one contract, three stores): every server
 * these files start gets a database of its own on the shared MariaDB
 * (test/support/test-server.ts). The same files as on PostgreSQL (on-postgres.test.ts), for
 * the same reasons: per-link analytics drain the embedded aggregator, which a shared store
 * does not have.
 */
import { mariadbReachable, whenMariadb } from '../support/require-mariadb.js';

if (await mariadbReachable()) {
  process.env['HOP_TEST_STORE'] = 'mariadb';
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
  await import('./all-links-analytics.test.js');
  await import('./webhooks.test.js');
  await import('./events.test.js');
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenMariadb('the API on MariaDB (needs MariaDB)', () => undefined);
}
