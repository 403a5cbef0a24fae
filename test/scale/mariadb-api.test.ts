// All twenty API suites on MariaDB (issue 25); npm test runs their core (test/http/on-mariadb.test.ts).
import { runApiSuitesOn } from '../http/api-suites-on-a-shared-store.js';

await runApiSuitesOn('mariadb', 'all');
