import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { dropDatabase, MARIADB_URL, uniqueDatabase } from './require-mariadb.js';

/**
 * Databases for tests on the shared MariaDB, used again within a test process. A new one
 * costs thirty-odd DDL statements (a file and its fsyncs per table, triggers) and DROP
 * DATABASE as many file deletions: under `npm test`'s load that I/O slowed every test on
 * the machine. A database given back is emptied (every table but schema_migrations, every
 * AUTO_INCREMENT reset, so event logs and the code scan start from 1 as on a new one) and
 * handed to the next test, already migrated; the process drops every one it took when it
 * ends.
 */
const spare: string[] = [];
/** Every database this process took: a test that never closed its server never gives it back. */
const taken = new Set<string>();
let dropOnExit = false;

/** A database no other test is using: an emptied one, or a new name (created at open). */
export function takeDatabase(): string {
  if (!dropOnExit) {
    dropOnExit = true;
    // beforeExit runs again after these drops finish, with nothing left to drop.
    process.on('beforeExit', () => {
      const names = [...taken];
      taken.clear();
      spare.length = 0;
      if (names.length > 0) void Promise.all(names.map((name) => dropDatabase(name)));
    });
  }
  const database = spare.pop() ?? uniqueDatabase();
  taken.add(database);
  return database;
}

/**
 * Empties `database` and keeps it for the next test; a database that cannot be emptied (a
 * test left it half-made) is dropped instead. Sessions still in it are ended first: a
 * failed test's open transaction would hold its rows locked.
 */
export async function giveBackDatabase(database: string): Promise<void> {
  const admin = await createConnection({ uri: MARIADB_URL, multipleStatements: true });
  try {
    const [sessions] = await admin.query<RowDataPacket[]>(
      'SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()',
      [database],
    );
    for (const session of sessions) {
      await admin.query(`KILL ${Number(session['id'])}`).catch(() => undefined);
    }
    const [tables] = await admin.query<RowDataPacket[]>(
      `SELECT table_name AS name, auto_increment AS next FROM information_schema.tables
       WHERE table_schema = ? AND table_type = 'BASE TABLE'`,
      [database],
    );
    const names = tables.map((table) => String(table['name']));
    if (!names.includes('schema_migrations')) throw new Error('not migrated');
    const emptied = names.filter((name) => name !== 'schema_migrations');
    const counted = tables.filter((table) => table['next'] !== null && Number(table['next']) > 1);
    await admin.query(
      [
        'SET SESSION foreign_key_checks = 0',
        'START TRANSACTION',
        ...emptied.map((name) => `DELETE FROM \`${database}\`.\`${name}\``),
        'COMMIT',
        ...counted.map(
          (table) => `ALTER TABLE \`${database}\`.\`${String(table['name'])}\` AUTO_INCREMENT = 1`,
        ),
      ].join(';\n'),
    );
    spare.push(database);
  } catch {
    taken.delete(database);
    await dropDatabase(database);
  } finally {
    await admin.end();
  }
}
