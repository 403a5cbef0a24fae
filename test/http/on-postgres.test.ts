// The core API suites again, on PostgreSQL; all twenty in test/scale/postgres-api.test.ts.
import { runApiSuitesOn } from './api-suites-on-a-shared-store.js';

await runApiSuitesOn('postgres', 'core');
