/**
 * The core API suites again, on PostgreSQL instead of SQLite (api-suites-on-a-shared-store.ts),
 * beside the whole PostgreSQL contract; all twenty are test/scale/postgres-api.test.ts
 * (`npm run test:scale`), as on MariaDB: npm test's 10 minutes on two cores.
 */
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';
import { importApiSuitesOnASharedStore } from './api-suites-on-a-shared-store.js';

if (await postgresReachable()) {
  process.env['HOP_TEST_STORE'] = 'postgres';
  await importApiSuitesOnASharedStore('core');
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenPostgres('the API on PostgreSQL (needs PostgreSQL)', () => undefined);
}
