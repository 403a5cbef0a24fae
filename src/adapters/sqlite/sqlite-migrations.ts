import { loadMigrationFiles, type MigrationFile } from '../sql/migration-files.js';
import type Database from 'better-sqlite3';

/** hop.db: links, idempotency records, API keys. */
export const LINK_MIGRATIONS = new URL('./migrations/', import.meta.url);
/** clicks.db: the click queue and the aggregates. */
export const CLICK_MIGRATIONS = new URL('./click-migrations/', import.meta.url);

/** `0001_create_links.sql` → version 1. Files are applied in version order, once each. */
export function loadMigrations(dir: URL = LINK_MIGRATIONS): readonly MigrationFile[] {
  return loadMigrationFiles(dir);
}

/**
 * Applies every migration not yet recorded in `schema_migrations`. The whole run holds a
 * write lock (BEGIN IMMEDIATE), so two processes starting at once apply each file once.
 */
export function applyMigrations(db: Database.Database, dir: URL = LINK_MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
  const migrations = loadMigrations(dir);
  const applied: number[] = [];
  const run = db.transaction(() => {
    const done = new Set(
      db
        .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
        .all()
        .map((row) => row.version),
    );
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
      applied.push(migration.version);
    }
  });
  run.immediate();
  return applied;
}
