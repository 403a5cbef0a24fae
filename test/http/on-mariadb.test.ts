// npm test starts it early: a long file (scripts/run-tests.ts), not the last to end.
/** The API suites again, on MariaDB (issue 25; api-suites-on-a-shared-store.ts). */
import { mariadbReachable, whenMariadb } from '../support/require-mariadb.js';
import { importApiSuitesOnASharedStore } from './api-suites-on-a-shared-store.js';

if (await mariadbReachable()) {
  process.env['HOP_TEST_STORE'] = 'mariadb';
  await importApiSuitesOnASharedStore();
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenMariadb('the API on MariaDB (needs MariaDB)', () => undefined);
}
