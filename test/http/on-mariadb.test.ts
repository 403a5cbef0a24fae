/**
 * The core API suites again, on MariaDB (issue 25; api-suites-on-a-shared-store.ts): the
 * store's own behaviour is the MariaDB contract's (test/contract/mariadb-*.test.ts), all of
 * it in npm test. All twenty API suites on MariaDB are test/scale/mariadb-api.test.ts
 * (`npm run test:scale`): npm test's 10 minutes on two cores did not hold them.
 */
import { mariadbReachable, whenMariadb } from '../support/require-mariadb.js';
import { importApiSuitesOnASharedStore } from './api-suites-on-a-shared-store.js';

if (await mariadbReachable()) {
  process.env['HOP_TEST_STORE'] = 'mariadb';
  await importApiSuitesOnASharedStore('core');
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenMariadb('the API on MariaDB (needs MariaDB)', () => undefined);
}
