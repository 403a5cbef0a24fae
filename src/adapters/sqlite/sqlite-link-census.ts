import type Database from 'better-sqlite3';
import type { CensusSlice, LinkCensus, LinkCountSnapshot } from '../../ports/link-census.js';
import {
  censusSliceFromRow,
  censusSliceSql,
  READ_SNAPSHOT,
  saveSnapshotSql,
  snapshotFromRow,
  snapshotParams,
  type CensusSliceRow,
  type SnapshotRow,
} from '../sql/link-count-sql.js';
import { guardSqlite } from './sqlite-errors.js';

type SliceParams = [{ now: number; after: string; limit: number }];

/** The census over hop.db's links, by primary key ranges, and its saved snapshot. */
export class SqliteLinkCensus implements LinkCensus {
  readonly #slice: Database.Statement<SliceParams, CensusSliceRow>;
  readonly #readSnapshot: Database.Statement<[], SnapshotRow>;
  readonly #saveSnapshot: Database.Statement<number[]>;

  constructor(db: Database.Database) {
    this.#slice = db.prepare<SliceParams, CensusSliceRow>(
      censusSliceSql('@now', '@after', '@limit'),
    );
    this.#readSnapshot = db.prepare<[], SnapshotRow>(READ_SNAPSHOT);
    this.#saveSnapshot = db.prepare<number[]>(saveSnapshotSql(['?', '?', '?', '?', '?', '?', '?']));
  }

  async countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice> {
    return guardSqlite('count links', () =>
      censusSliceFromRow(this.#slice.get({ now: nowMs, after: afterId ?? '', limit })),
    );
  }

  async readSnapshot(): Promise<LinkCountSnapshot | null> {
    return guardSqlite('read the link counts', () => snapshotFromRow(this.#readSnapshot.get()));
  }

  async saveSnapshot(snapshot: LinkCountSnapshot): Promise<void> {
    guardSqlite('save the link counts', () => this.#saveSnapshot.run(...snapshotParams(snapshot)));
  }
}
