import type { Pool, RowDataPacket } from 'mysql2/promise';
import { inTransaction } from './mariadb-transaction.js';

/**
 * Positions in MariaDB's event logs (link events, click events: ADR 0127, ADR 0140).
 *
 * A position is an event's `seq` (AUTO_INCREMENT). A number is handed out when a row is
 * inserted, not when its transaction commits, and MariaDB has no horizon like PostgreSQL's
 * oldest running transaction to read below. So a reader takes the rows after its position in
 * seq order and stops at the first gap (a missing number: a transaction still running, or
 * one that rolled back), unless
 *  - the row after the gap was written longer than the settle bound ago (by the server's
 *    clock, `written_at`): whatever took the missing numbers took them before that row's,
 *    and has ended by now (its statements are bounded by max_statement_time and hop's
 *    transactions end right after their last one), so they will never be events; or
 *  - every missing number is at or below the highest one retention deleted
 *    (`forgotten_events`): they were events, forgotten.
 * An event is thus read once nothing can commit behind it, at the latest a settle bound
 * after it was written. A transaction that outlives the bound after taking its number
 * (a client frozen between its INSERT and its COMMIT) has its event skipped: the bound must
 * exceed the longest time from a link write to its COMMIT. (Click events are exact on one
 * server: folds take turns on one row, held to COMMIT, so no fold writes after a gap while
 * the fold that left it runs.)
 *
 * On Galera (wsrep_auto_increment_control) each node draws numbers of its own residue
 * (auto_increment_offset, modulo auto_increment_increment = the cluster's size) above the
 * highest it has seen, so gaps are normal there, and @@auto_increment_increment/offset
 * cannot tell a number another node will never use from one it holds in a running
 * transaction: which it draws depends on what it has applied. Events there wait out the
 * settle bound, which must also cover replication's lag (a node may draw a number below
 * one already written elsewhere until that write reaches it).
 */

/** The tables of the two logs. */
export type EventLogTable = 'link_events' | 'click_events';

/**
 * The settle bound by default: HOP_STATEMENT_TIMEOUT's default (5 s, max_statement_time),
 * which bounds what is left of a writing statement, and a second for its COMMIT. Every
 * write to `links` is the last statement of its transaction. A longer statement timeout
 * needs a bound as much longer.
 */
export const DEFAULT_SETTLE_MS = 6000;

/** A log's row as the rule weighs it. */
export interface SequencedRow extends RowDataPacket {
  seq: number;
  /** When the server wrote the row (epoch ms, its clock). */
  written_at: number;
}

/** What a read after a position selects besides the log's own columns. */
export interface PositionedRow extends SequencedRow {
  /** The server's clock at the read (epoch ms). */
  server_now: number;
  /** The highest seq retention deleted (0: none). */
  forgotten_through: number;
}

/** The columns of PositionedRow, for `SELECT ${positionColumns()}, … FROM table`. */
function positionColumns(): string {
  return `seq, written_at, ${SERVER_NOW} AS server_now,
    (${FORGOTTEN_THROUGH}) AS forgotten_through`;
}

const SERVER_NOW = 'FLOOR(UNIX_TIMESTAMP(NOW(3)) * 1000)';
const FORGOTTEN_THROUGH =
  'SELECT COALESCE(MAX(through_seq), 0) FROM forgotten_events WHERE log = ?';

/** The WHERE tail of a read after a position, binding afterParams. */
const AFTER_SEQ = 'seq > ? ORDER BY seq LIMIT ?';

/** The parameters of positionColumns and AFTER_SEQ, in order. */
function afterParams(
  table: EventLogTable,
  position: string,
  limit: number,
): [string, number, number] {
  return [table, seqOf(position), limit];
}

/**
 * The seq a position names: `''` is before the first. A position this log did not make
 * (another engine's `xid:seq`) starts over from the first event kept, as PostgreSQL's log
 * reads a position it did not make from its start.
 */
export function seqOf(position: string): number {
  return /^\d{1,20}$/.test(position) ? Number(position) : 0;
}

export function positionOf(seq: number): string {
  return seq === 0 ? '' : String(seq);
}

/** What the rule weighs a gap against, at one reading of the server's clock. */
interface GapBounds {
  /** Rows written at or before this (epoch ms, server clock) have settled. */
  readonly settledBy: number;
  readonly forgottenThrough: number;
}

/** The bounds of a read after a position, from what it selected with its rows. */
function boundsOf(rows: readonly PositionedRow[], settleMs: number): GapBounds {
  const first = rows[0];
  return {
    settledBy: (first?.server_now ?? 0) - settleMs,
    forgottenThrough: first?.forgotten_through ?? 0,
  };
}

/**
 * Of `rows`, the next ones after `afterSeq` in seq order, those a reader may have: up to
 * the first gap that may still fill (see above).
 */
function readableRows<Row extends SequencedRow>(
  rows: readonly Row[],
  afterSeq: number,
  bounds: GapBounds,
): Row[] {
  const readable: Row[] = [];
  let previous = afterSeq;
  for (const row of rows) {
    if (!mayFollow(previous, row, bounds)) break;
    readable.push(row);
    previous = row.seq;
  }
  return readable;
}

function mayFollow(previous: number, row: SequencedRow, bounds: GapBounds): boolean {
  if (row.seq === previous + 1) return true;
  if (row.seq - 1 <= bounds.forgottenThrough) return true;
  return row.written_at <= bounds.settledBy;
}

/** Rows looked at a time, newest first, to find where the settled part of a log ends. */
const LATEST_PAGE = 200;

/**
 * The rows of `table` after `position` that a reader may take now, in seq order: `columns`
 * besides the position's own, up to the first gap that has not settled (readableRows).
 */
export async function settledRowsAfter<Row extends PositionedRow>(
  pool: Pool,
  table: EventLogTable,
  columns: string,
  position: string,
  limit: number,
  settleMs: number,
): Promise<Row[]> {
  const [rows] = await pool.query<Row[]>(
    `SELECT ${positionColumns()}, ${columns} FROM ${table} WHERE ${AFTER_SEQ}`,
    afterParams(table, position, limit),
  );
  return readableRows(rows, seqOf(position), boundsOf(rows, settleMs));
}

/**
 * The position of the newest event nothing can commit behind (`''` when there is none): a
 * follower starting there skips the past, and still reads what every transaction running
 * now commits. The newest settled row anchors it (or, below all rows kept, the highest
 * number forgotten); the young rows after it are walked as a reader would.
 */
export async function latestPosition(
  pool: Pool,
  table: EventLogTable,
  settleMs: number,
): Promise<string> {
  const [now] = await pool.query<(RowDataPacket & { server_now: number; forgotten: number })[]>(
    `SELECT ${SERVER_NOW} AS server_now, (${FORGOTTEN_THROUGH}) AS forgotten`,
    [table],
  );
  const bounds: GapBounds = {
    settledBy: (now[0]?.server_now ?? 0) - settleMs,
    forgottenThrough: now[0]?.forgotten ?? 0,
  };
  const young: SequencedRow[] = [];
  let anchor = bounds.forgottenThrough;
  for (let below: number | null = null; ;) {
    const rows: SequencedRow[] = (
      await pool.query<SequencedRow[]>(
        `SELECT seq, written_at FROM ${table} WHERE seq > ? ${below === null ? '' : 'AND seq < ?'}
         ORDER BY seq DESC LIMIT ?`,
        below === null
          ? [bounds.forgottenThrough, LATEST_PAGE]
          : [bounds.forgottenThrough, below, LATEST_PAGE],
      )
    )[0];
    const settled = rows.findIndex((row) => row.written_at <= bounds.settledBy);
    young.push(...(settled === -1 ? rows : rows.slice(0, settled)));
    const last = settled === -1 ? undefined : rows[settled];
    if (last !== undefined) {
      anchor = last.seq;
      break;
    }
    if (rows.length < LATEST_PAGE) break;
    below = rows.at(-1)?.seq ?? null;
  }
  const walked = readableRows(young.reverse(), anchor, bounds);
  return positionOf(walked.at(-1)?.seq ?? anchor);
}

/**
 * Deletes up to `limit` events of `table` matching `condition` (binding `params`), in
 * `order`, and records the highest seq deleted, in one transaction: a reader before them is
 * then not held back by their absence. Returns how many it deleted.
 */
export async function forgetEvents(
  pool: Pool,
  table: EventLogTable,
  forget: {
    readonly condition: string;
    readonly params: readonly unknown[];
    readonly order: string;
  },
  limit: number,
): Promise<number> {
  return inTransaction(pool, async (connection) => {
    const [deleted] = await connection.query<(RowDataPacket & { seq: number })[]>(
      `DELETE FROM ${table} WHERE ${forget.condition} ORDER BY ${forget.order} LIMIT ?
       RETURNING seq`,
      [...forget.params, limit],
    );
    if (deleted.length === 0) return 0;
    const highest = deleted.reduce((most, row) => Math.max(most, row.seq), 0);
    await connection.query(
      `INSERT INTO forgotten_events (log, through_seq) VALUES (?, ?)
       ON DUPLICATE KEY UPDATE through_seq = GREATEST(through_seq, VALUES(through_seq))`,
      [table, highest],
    );
    return deleted.length;
  });
}
