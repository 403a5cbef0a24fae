// All twenty API suites on PostgreSQL; npm test runs their core (test/http/on-postgres.test.ts).
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';
import { importApiSuitesOnASharedStore } from '../http/api-suites-on-a-shared-store.js';

if (await postgresReachable()) {
  process.env['HOP_TEST_STORE'] = 'postgres';
  await importApiSuitesOnASharedStore('all');
} else {
  await whenPostgres('the API on PostgreSQL (needs PostgreSQL)', () => undefined);
}
