// npm test starts it early: a long file (scripts/run-tests.ts), not the last to end.
/** The API suites again, on PostgreSQL instead of SQLite (api-suites-on-a-shared-store.ts). */
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';
import { importApiSuitesOnASharedStore } from './api-suites-on-a-shared-store.js';

if (await postgresReachable()) {
  process.env['HOP_TEST_STORE'] = 'postgres';
  await importApiSuitesOnASharedStore();
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenPostgres('the API on PostgreSQL (needs PostgreSQL)', () => undefined);
}
