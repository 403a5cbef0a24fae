// All twenty API suites on PostgreSQL; npm test runs their core (test/http/on-postgres.test.ts).
import { runApiSuitesOn } from '../http/api-suites-on-a-shared-store.js';

await runApiSuitesOn('postgres', 'all');
