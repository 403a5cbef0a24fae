// The core API suites again, on MariaDB (issue 25); all twenty in test/scale/mariadb-api.test.ts.
import { runApiSuitesOn } from './api-suites-on-a-shared-store.js';

await runApiSuitesOn('mariadb', 'core');
