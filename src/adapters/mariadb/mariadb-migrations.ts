import type { Connection, RowDataPacket } from 'mysql2/promise';
import { loadMigrationFiles, type MigrationFile } from '../sql/migration-files.js';

/** The schema's SQL files, `0001_name.sql`, applied in version order, once each. */
export const MARIADB_MIGRATIONS = new URL('./migrations/', import.meta.url);

export function loadMariaDbMigrations(dir: URL = MARIADB_MIGRATIONS): readonly MigrationFile[] {
  return loadMigrationFiles(dir);
}

/** How long an instance waits for another one's migrations before it gives up. */
const LOCK_WAIT_SECONDS = 120;

/**
 * Applies every migration not yet recorded in `schema_migrations`. MariaDB's DDL commits
 * as it goes, so a file is not applied all or nothing: every statement in one may run again
 * (IF NOT EXISTS), and a file is recorded once it has run whole. Instances starting at once
 * on one server take turns under GET_LOCK; on Galera that lock is the node's own, and
 * instances in two regions starting at once both run the files, which their IF NOT EXISTS
 * makes harmless (DDL is replicated in total order), and record them once (INSERT IGNORE).
 */
export async function applyMariaDbMigrations(
  connection: Connection,
  dir: URL = MARIADB_MIGRATIONS,
): Promise<number[]> {
  const migrations = loadMariaDbMigrations(dir);
  const applied: number[] = [];
  const [locked] = await connection.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS got', [
    'hop_migrations',
    LOCK_WAIT_SECONDS,
  ]);
  if (locked[0]?.['got'] !== 1) throw new Error('another instance holds the migration lock');
  try {
    await connection.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INT NOT NULL PRIMARY KEY, name VARCHAR(255) NOT NULL, applied_at BIGINT NOT NULL
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
    const [rows] = await connection.query<RowDataPacket[]>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => Number(row['version'])));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await connection.query(migration.sql);
      const [recorded] = await connection.query<{ affectedRows: number } & RowDataPacket[]>(
        'INSERT IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        [migration.version, migration.name, Date.now()],
      );
      if ((recorded as unknown as { affectedRows: number }).affectedRows === 1) {
        applied.push(migration.version);
      }
    }
  } finally {
    await connection.query('SELECT RELEASE_LOCK(?)', ['hop_migrations']);
  }
  return applied;
}
