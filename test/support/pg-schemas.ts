import pg from 'pg';
import { dropSchema, POSTGRES_URL, uniqueSchema } from './require-postgres.js';

/**
 * Schemas for tests on the shared PostgreSQL, used again within a test process, as
 * test/support/mariadb-databases.ts does for MariaDB: a new schema is twenty migrations of
 * DDL and a DROP SCHEMA … CASCADE; one given back is emptied by one TRUNCATE (identities
 * restarted) and handed to the next test, already migrated. The process drops every schema
 * it took when it ends.
 */
const spare: string[] = [];
const taken = new Set<string>();
let dropOnExit = false;

/** A schema no other test is using: an emptied one, or a new name (created at open). */
export function takeSchema(): string {
  if (!dropOnExit) {
    dropOnExit = true;
    // beforeExit runs again after these drops finish, with nothing left to drop.
    process.on('beforeExit', () => {
      const names = [...taken];
      taken.clear();
      spare.length = 0;
      if (names.length > 0) void Promise.all(names.map((name) => dropSchema(name)));
    });
  }
  const schema = spare.pop() ?? uniqueSchema();
  taken.add(schema);
  return schema;
}

/**
 * Empties `schema` (every table but schema_migrations, identities restarted) and keeps it
 * for the next test; one that cannot be emptied quickly (a test left a lock, or it was never
 * migrated) is dropped instead, which ends the sessions in the way.
 */
export async function giveBackSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
      [schema],
    );
    const names = rows.map((row) => row.name);
    if (!names.includes('schema_migrations')) throw new Error('not migrated');
    const emptied = names.filter((name) => name !== 'schema_migrations');
    await client.query(`SET lock_timeout = '2s'`);
    await client.query(
      `TRUNCATE ${emptied.map((name) => `${schema}."${name}"`).join(', ')} RESTART IDENTITY CASCADE`,
    );
    spare.push(schema);
  } catch {
    taken.delete(schema);
    await dropSchema(schema);
  } finally {
    await client.end();
  }
}
