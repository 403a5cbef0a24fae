import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { PeerSourceError } from './peer-rows.js';
import { KUTT_LINK_COLUMNS, type KuttLinkRow, type KuttTables } from './kutt-link-rows.js';

/** Kutt's tables in its SQLite file (DB_CLIENT=better-sqlite3), opened read-only. */
export async function openKuttSqlite(file: string): Promise<KuttTables> {
  // better-sqlite3 would say "unable to open database file"; this says which.
  if (!existsSync(file)) throw new PeerSourceError(`cannot read ${file}: no such file`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM links, domains LIMIT 0').all();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new PeerSourceError(
      /no such table/.test(message)
        ? `${file} has no Kutt links or domains table (${message})`
        : `cannot read ${file} as a Kutt database: ${message}`,
    );
  }
  const pageQuery = db.prepare<[number, number], KuttLinkRow>(
    `SELECT ${KUTT_LINK_COLUMNS} FROM links l LEFT JOIN domains d ON d.id = l.domain_id
     WHERE l.id > ? ORDER BY l.id LIMIT ?`,
  );
  const countQuery = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM links');
  return {
    count: async () => countQuery.get()?.n ?? 0,
    page: async (afterId, limit) => pageQuery.all(afterId, limit),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
