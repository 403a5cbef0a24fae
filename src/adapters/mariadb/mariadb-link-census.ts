import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { CensusSlice, LinkCensus, LinkCountSnapshot } from '../../ports/link-census.js';
import {
  censusSliceFromRow,
  censusSliceSql,
  READ_SNAPSHOT,
  snapshotFromRow,
  snapshotParams,
  type CensusSliceRow,
  type SnapshotRow,
} from '../sql/link-count-sql.js';
import { guardMariaDb } from './mariadb-errors.js';

/** The shared slice SQL names the clock reading twice: named placeholders bind it once. */
const SLICE = censusSliceSql(':now', ':after', ':limit');

/**
 * A later census replaces an earlier one, never the reverse: each column is set only when
 * the new count is at least as late. counted_at is assigned last, as MariaDB's assignments
 * see the columns set before them.
 */
const SAVE_SNAPSHOT = `INSERT INTO link_counts
    (id, total, active, disabled, expired, deleted, counted_at, duration_ms)
  VALUES (1, ?, ?, ?, ?, ?, ?, ?)
  ON DUPLICATE KEY UPDATE
    ${['total', 'active', 'disabled', 'expired', 'deleted', 'duration_ms', 'counted_at']
      .map(
        (column) =>
          `${column} = IF(VALUES(counted_at) >= counted_at, VALUES(${column}), ${column})`,
      )
      .join(',\n    ')}`;

/** The census over links, by primary key ranges (each slice one index range), and its snapshot. */
export class MariaDbLinkCensus implements LinkCensus {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice> {
    return guardMariaDb('count links', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & CensusSliceRow)[]>(
        { sql: SLICE, namedPlaceholders: true },
        { now: nowMs, after: afterId ?? '', limit },
      );
      return censusSliceFromRow(rows[0]);
    });
  }

  async readSnapshot(): Promise<LinkCountSnapshot | null> {
    return guardMariaDb('read the link counts', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & SnapshotRow)[]>(READ_SNAPSHOT);
      return snapshotFromRow(rows[0]);
    });
  }

  async saveSnapshot(snapshot: LinkCountSnapshot): Promise<void> {
    await guardMariaDb('save the link counts', () =>
      this.#pool.query(SAVE_SNAPSHOT, snapshotParams(snapshot)),
    );
  }
}
