import type pg from 'pg';
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
import { guardPg } from './pg-errors.js';

const SLICE = censusSliceSql('$1', '$2', '$3');
const SAVE_SNAPSHOT = saveSnapshotSql(['$1', '$2', '$3', '$4', '$5', '$6', '$7']);

/** The census over links, by primary key ranges (each slice one index range), and its snapshot. */
export class PgLinkCensus implements LinkCensus {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice> {
    return guardPg('count links', async () => {
      const { rows } = await this.#pool.query<CensusSliceRow>(SLICE, [nowMs, afterId ?? '', limit]);
      return censusSliceFromRow(rows[0]);
    });
  }

  async readSnapshot(): Promise<LinkCountSnapshot | null> {
    return guardPg('read the link counts', async () => {
      const { rows } = await this.#pool.query<SnapshotRow>(READ_SNAPSHOT);
      return snapshotFromRow(rows[0]);
    });
  }

  async saveSnapshot(snapshot: LinkCountSnapshot): Promise<void> {
    await guardPg('save the link counts', () =>
      this.#pool.query(SAVE_SNAPSHOT, snapshotParams(snapshot)),
    );
  }
}
