import type Database from 'better-sqlite3';
import type { CensusSlice, LinkCensus } from '../../ports/link-census.js';
import { guardSqlite } from './sqlite-errors.js';

interface SliceRow {
  seen: number;
  active: number | null;
  last_id: string | null;
}

/** The census over hop.db's links, by primary key ranges. */
export class SqliteLinkCensus implements LinkCensus {
  readonly #slice: Database.Statement<[{ now: number; after: string; limit: number }], SliceRow>;

  constructor(db: Database.Database) {
    this.#slice = db.prepare<[{ now: number; after: string; limit: number }], SliceRow>(
      `SELECT count(*) AS seen, sum(live) AS active, max(id) AS last_id FROM (
         SELECT id, (state = 'active' AND (expires_at IS NULL OR expires_at > @now)) AS live
         FROM links WHERE id > @after ORDER BY id LIMIT @limit)`,
    );
  }

  async countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice> {
    return guardSqlite('count links', () => {
      const row = this.#slice.get({ now: nowMs, after: afterId ?? '', limit }) as SliceRow;
      return { seen: row.seen, active: row.active ?? 0, lastId: row.last_id };
    });
  }
}
