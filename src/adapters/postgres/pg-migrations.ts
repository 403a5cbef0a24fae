import { loadMigrationFiles, type MigrationFile } from '../sql/migration-files.js';
import type pg from 'pg';

/** The schema's SQL files, `0001_name.sql`, applied in version order, once each. */
export const PG_MIGRATIONS = new URL('./migrations/', import.meta.url);

export function loadPgMigrations(dir: URL = PG_MIGRATIONS): readonly MigrationFile[] {
  return loadMigrationFiles(dir);
}

/** Any fixed number: the advisory lock that makes instances starting together take turns. */
const MIGRATION_LOCK = 0x686f70; // "hop"

/**
 * Creates `schema` if missing and applies every migration not yet recorded in its
 * `schema_migrations`, all in one transaction under an advisory lock: instances starting at
 * once apply each file once, and a failed file leaves nothing half-applied (PostgreSQL's
 * DDL is transactional).
 */
export async function applyPgMigrations(
  client: pg.ClientBase,
  schema: string,
  dir: URL = PG_MIGRATIONS,
): Promise<number[]> {
  const migrations = loadPgMigrations(dir);
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Only when missing: CREATE SCHEMA IF NOT EXISTS checks the right to create schemas
    // first, which a role that owns just its schema does not have.
    const exists = await client.query<{ found: boolean }>(
      'SELECT to_regnamespace($1) IS NOT NULL AS found',
      [schema],
    );
    if (exists.rows[0]?.found !== true) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET LOCAL search_path = ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (row) => row.version,
      ),
    );
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, Date.now()],
      );
      applied.push(migration.version);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}
