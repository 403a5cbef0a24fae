import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { CodeScanPage, LinkCodeScan } from '../../ports/link-code-scan.js';
import { guardMariaDb } from './mariadb-errors.js';

/**
 * How long after a row's insert a seq missing below it is taken as rolled back: longer than
 * any transaction inserting links stays open (a few statements of at most the statement
 * timeout, 5 s by default) plus, on Galera, the replication lag and the nodes' clock skew.
 */
const SETTLE_MS = 30_000;

/**
 * Where a scan stands, in `scan_seq` order (migration 0003): this pass has returned the rows
 * up to `after`; every seq up to `contiguous` (at most `after`) was returned, by this pass or
 * an earlier one, or is known never to commit. The next pass starts after `contiguous`.
 */
interface ScanPosition {
  readonly after: number;
  readonly contiguous: number;
}

const SCAN_START: ScanPosition = { after: 0, contiguous: 0 };

interface LastSeqRow extends RowDataPacket {
  last: number | string;
}

interface ScanRow extends RowDataPacket {
  seq: number;
  code: string;
  /** 1 when the row was inserted longer than the settle bound ago (server clock). */
  settled: number;
}

/**
 * Codes in the order of `scan_seq`, an AUTO_INCREMENT taken at insert (ADR 0140). A row
 * whose transaction began early and commits late appears behind rows already read: a seq
 * missing below a row read is waited for, by starting each pass again from below it, until
 * the row above it was inserted longer ago than the settle bound; then the gap counts as
 * a rollback (or a duplicate's burnt seq, or on Galera another node's seq it never used).
 * So a pass may return again the codes inserted in the last SETTLE_MS (the port allows it),
 * and a transaction that commits a link more than SETTLE_MS after inserting it is missed
 * by scans continued from a cursor (a restart's full load still finds it).
 */
export class MariaDbCodeScan implements LinkCodeScan {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async scanCodes(cursor: string | null, limit: number): Promise<CodeScanPage> {
    const position = cursor === null ? SCAN_START : parseScanCursor(cursor);
    const rows = await guardMariaDb('scan codes', () => this.#readPage(position.after, limit));
    let contiguous = position.contiguous;
    // Once a gap stops it, this pass cannot move `contiguous` on.
    let unbroken = contiguous === position.after;
    for (const row of rows) {
      if (!unbroken) break;
      if (row.seq === contiguous + 1 || row.settled === 1) contiguous = row.seq;
      else unbroken = false;
    }
    const codes = rows.map((row) => row.code);
    const last = rows.at(-1);
    if (last !== undefined && rows.length === limit) {
      return {
        codes,
        cursor: formatScanCursor({ after: last.seq, contiguous }),
      };
    }
    // The pass is over: the next one starts again at the first gap still open.
    return { codes, cursor: formatScanCursor({ after: contiguous, contiguous }) };
  }

  /** The largest `scan_seq`: every row holds a distinct one (AUTO_INCREMENT), read off its index. */
  async estimateCodeCount(): Promise<number> {
    return guardMariaDb('count codes', async () => {
      const [rows] = await this.#pool.query<LastSeqRow[]>(
        'SELECT COALESCE(MAX(scan_seq), 0) AS last FROM links',
      );
      return Number(rows[0]?.last ?? 0);
    });
  }

  /**
   * Up to `limit` rows after `after`, each with whether it was inserted longer than the
   * settle bound ago, by the server's clock as `inserted_at` is.
   */
  async #readPage(after: number, limit: number): Promise<ScanRow[]> {
    const [rows] = await this.#pool.query<ScanRow[]>(
      `SELECT scan_seq AS seq, IF(domain = '', code, CONCAT(domain, '/', code)) AS code,
              inserted_at <= FLOOR(UNIX_TIMESTAMP(NOW(3)) * 1000) - ? AS settled
       FROM links WHERE scan_seq > ? ORDER BY scan_seq LIMIT ?`,
      [SETTLE_MS, after, limit],
    );
    return rows;
  }
}

/** `my:<after>:<contiguous>`, decimal seqs. */
function formatScanCursor(position: ScanPosition): string {
  return `my:${position.after}:${position.contiguous}`;
}

function parseScanCursor(cursor: string): ScanPosition {
  const match = /^my:(\d{1,15}):(\d{1,15})$/.exec(cursor);
  const after = Number(match?.[1]);
  const contiguous = Number(match?.[2]);
  if (match === null || contiguous > after) {
    throw new RangeError(`not a scan cursor: ${cursor}`);
  }
  return { after, contiguous };
}
