import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DOMAIN_COLUMNS } from '../../src/adapters/sql/domain-rows.js';
import { applyMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';

/** The short domain the `domains` scenario registers: no link is on it, and no load names it. */
export const SECOND_DOMAIN = 'go.bench.test';

/**
 * Registers `host` as a short domain (https, no root or not-found redirect) in a copy of a
 * store no hop has open, as `hop domains add` would store it: hop's migrations first (a
 * store seeded by an older hop may have no `domains` table yet), then the row. A hop that
 * opens the copy then holds a domain other than the default, so it reads every request's
 * `Host` (src/services/redirect/domain-routes.ts), the cost the scenario measures.
 */
export function addDomain(dataDir: string, host: string, now = Date.now()): void {
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    applyMigrations(db);
    db.prepare(`INSERT INTO domains (${DOMAIN_COLUMNS}) VALUES (?, NULL, NULL, 1, ?, ?)`).run(
      host,
      now,
      now,
    );
  } finally {
    db.close();
  }
}
