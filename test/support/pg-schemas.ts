import pg from 'pg';
import { reusedNamespaces } from './reused-namespaces.js';
import { dropSchema, POSTGRES_URL, uniqueSchema } from './require-postgres.js';

/**
 * Test schemas on the shared PostgreSQL, emptied and used again (reused-namespaces.ts): one
 * TRUNCATE of every table but schema_migrations, identities restarted.
 */
const schemas = reusedNamespaces({ unique: uniqueSchema, empty, drop: dropSchema });

export const takeSchema = (): string => schemas.take();
export const giveBackSchema = (schema: string): Promise<void> => schemas.giveBack(schema);

/** Gives up after 2 s on a lock a failed test left: the schema is dropped instead. */
async function empty(schema: string): Promise<void> {
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
  } finally {
    await client.end();
  }
}
