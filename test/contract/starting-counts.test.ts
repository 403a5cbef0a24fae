import {
  openFreshMariaDbStore,
  openFreshPgStore,
  openFreshSqliteStore,
} from '../support/fresh-stores.js';
import { whenMariadb } from '../support/require-mariadb.js';
import { whenPostgres } from '../support/require-postgres.js';
import { startingCountsContract } from './starting-counts-contract.js';

startingCountsContract('SQLite', openFreshSqliteStore);
await whenPostgres('starting counts: PostgreSQL', () => {
  startingCountsContract('PostgreSQL', openFreshPgStore);
});
await whenMariadb('starting counts: MariaDB', () => {
  startingCountsContract('MariaDB', openFreshMariaDbStore);
});
