import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { reusedNamespaces } from './reused-namespaces.js';
import { dropDatabase, endSessionsIn, MARIADB_URL, uniqueDatabase } from './require-mariadb.js';

/**
 * Test databases on the shared MariaDB, emptied and used again (reused-namespaces.ts):
 * every table but schema_migrations emptied, every AUTO_INCREMENT reset, so event logs and
 * the code scan start from 1 as on a new database.
 */
const databases = reusedNamespaces({ unique: uniqueDatabase, empty, drop: dropDatabase });

export const takeDatabase = (): string => databases.take();
export const giveBackDatabase = (database: string): Promise<void> => databases.giveBack(database);

async function empty(database: string): Promise<void> {
  const admin = await createConnection({ uri: MARIADB_URL, multipleStatements: true });
  try {
    await endSessionsIn(admin, database);
    await admin.query(await emptyingSql(admin, database));
  } finally {
    await admin.end();
  }
}

async function emptyingSql(admin: Connection, database: string): Promise<string> {
  const [tables] = await admin.query<RowDataPacket[]>(
    `SELECT table_name AS name, auto_increment AS next FROM information_schema.tables
     WHERE table_schema = ? AND table_type = 'BASE TABLE'`,
    [database],
  );
  const names = tables.map((table) => String(table['name']));
  if (!names.includes('schema_migrations')) throw new Error('not migrated');
  const counted = tables.filter((table) => table['next'] !== null && Number(table['next']) > 1);
  return [
    'SET SESSION foreign_key_checks = 0',
    'START TRANSACTION',
    ...names
      .filter((name) => name !== 'schema_migrations')
      .map((name) => `DELETE FROM \`${database}\`.\`${name}\``),
    'COMMIT',
    ...counted.map(
      (table) => `ALTER TABLE \`${database}\`.\`${String(table['name'])}\` AUTO_INCREMENT = 1`,
    ),
  ].join(';\n');
}
