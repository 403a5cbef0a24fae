// All twenty API suites on MariaDB (issue 25); npm test runs their core (test/http/on-mariadb.test.ts).
import { mariadbReachable, whenMariadb } from '../support/require-mariadb.js';
import { importApiSuitesOnASharedStore } from '../http/api-suites-on-a-shared-store.js';

if (await mariadbReachable()) {
  process.env['HOP_TEST_STORE'] = 'mariadb';
  await importApiSuitesOnASharedStore('all');
} else {
  await whenMariadb('the API on MariaDB (needs MariaDB)', () => undefined);
}
