import type pg from 'pg';
import type { CodeScanPage, LinkCodeScan } from '../../ports/link-code-scan.js';
import { guardPg } from './pg-errors.js';

/**
 * Where a scan of codes stands, in the order of (inserting transaction id, link id):
 * every row at or below `safe` has been returned by an earlier pass; this pass has
 * returned the rows up to `after`, reading from the snapshot whose xmin was `passXmin`.
 */
interface ScanPosition {
  readonly safe: ScanKey;
  readonly after: ScanKey;
  readonly passXmin: string | null;
}

interface ScanKey {
  /** A transaction id (xid8, decimal). */
  readonly xid: string;
  readonly id: string;
}

const SCAN_START: ScanKey = { xid: '0', id: '' };

interface ScanPage {
  readonly rows: readonly { readonly xid: string; readonly id: string; readonly code: string }[];
  /** The oldest transaction still running when the page was read: none older can appear. */
  readonly xmin: string;
  /** The next transaction id to be handed out then. */
  readonly xmax: string;
}

/**
 * Rows come in the order of the transaction that inserted them (then id). Transactions
 * commit out of that order, so a row may still appear behind a position already read;
 * but none older than the snapshot's xmin (the oldest transaction still running) can.
 * Each pass therefore starts again from `safe`, the point below which nothing new can
 * appear, and a code inserted near the end of a pass may come twice: the port allows it.
 */
export class PgCodeScan implements LinkCodeScan {
  readonly #primary: pg.Pool;

  constructor(primary: pg.Pool) {
    this.#primary = primary;
  }

  async scanCodes(cursor: string | null, limit: number): Promise<CodeScanPage> {
    return guardPg('scan codes', async () => {
      let position: ScanPosition =
        cursor === null
          ? { safe: SCAN_START, after: SCAN_START, passXmin: null }
          : parseScanCursor(cursor);
      let page = await this.#scanPage(position.after, limit);
      // Transaction ids went back (a failover to a replica that had not received the last
      // transactions, a restore into another cluster): the cursor points past ids this
      // server will hand out again. Start over; codes already read may come again.
      if (compareXid(position.safe.xid, page.xmax) > 0) {
        position = { safe: SCAN_START, after: SCAN_START, passXmin: null };
        page = await this.#scanPage(SCAN_START, limit);
      }
      const { rows, xmin } = page;
      const passXmin =
        position.passXmin === null || compareXid(xmin, position.passXmin) < 0
          ? xmin
          : position.passXmin;
      const last = rows.at(-1);
      const codes = rows.map((row) => row.code);
      if (last !== undefined && rows.length === limit) {
        return {
          codes,
          cursor: formatScanCursor({
            safe: position.safe,
            after: { xid: last.xid, id: last.id },
            passXmin,
          }),
        };
      }
      // The pass is over: everything of a transaction older than the pass's first xmin has
      // been read; the next pass starts there.
      const reached = maxKey(position.safe, { xid: passXmin, id: '' });
      return { codes, cursor: formatScanCursor({ safe: reached, after: reached, passXmin: null }) };
    });
  }

  /**
   * Counted: PostgreSQL keeps no cheap upper bound (reltuples lags until an ANALYZE), and
   * a count is a fraction of the full scan it comes before.
   */
  async estimateCodeCount(): Promise<number> {
    return guardPg('count codes', async () => {
      const { rows } = await this.#primary.query<{ count: string }>(
        'SELECT count(*)::text AS count FROM links',
      );
      return Number(rows[0]?.count ?? 0);
    });
  }

  /**
   * Up to `limit` rows after `after`, with the xmin and xmax of the very snapshot that read
   * them (one statement: a second query's snapshot could be newer than the rows'). The
   * single-row subquery keeps the snapshot's bounds when no row follows `after`.
   */
  async #scanPage(after: ScanKey, limit: number): Promise<ScanPage> {
    const { rows } = await this.#primary.query<{
      xmin: string;
      xmax: string;
      xid: string | null;
      id: string | null;
      code: string | null;
    }>(
      `SELECT s.xmin, s.xmax, l.created_xid::text AS xid, l.id,
              CASE l.domain WHEN '' THEN l.code ELSE l.domain || '/' || l.code END AS code
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
                    pg_snapshot_xmax(pg_current_snapshot())::text AS xmax) AS s
       LEFT JOIN LATERAL (
         SELECT created_xid, id, domain, code FROM links WHERE (created_xid, id) > ($1::xid8, $2)
         ORDER BY created_xid, id LIMIT $3) AS l ON true
       ORDER BY l.created_xid, l.id`,
      [after.xid, after.id, limit],
    );
    const first = rows[0];
    if (first === undefined) throw new Error('the snapshot bounds are missing');
    const found: { xid: string; id: string; code: string }[] = [];
    for (const row of rows) {
      if (row.xid !== null && row.id !== null && row.code !== null) {
        found.push({ xid: row.xid, id: row.id, code: row.code });
      }
    }
    return { rows: found, xmin: first.xmin, xmax: first.xmax };
  }
}

/** Transaction ids are decimal strings of up to 20 digits: compare by length, then text. */
function compareXid(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function maxKey(a: ScanKey, b: ScanKey): ScanKey {
  const byXid = compareXid(a.xid, b.xid);
  if (byXid !== 0) return byXid > 0 ? a : b;
  return a.id >= b.id ? a : b;
}

/** `pg:<safeXid>:<safeId>:<afterXid>:<afterId>:<passXmin or ->`; ids never contain ':'. */
function formatScanCursor(position: ScanPosition): string {
  const { safe, after, passXmin } = position;
  return `pg:${safe.xid}:${safe.id}:${after.xid}:${after.id}:${passXmin ?? '-'}`;
}

function parseScanCursor(cursor: string): ScanPosition {
  const parts = cursor.split(':');
  const digits = /^\d{1,20}$/;
  const [tag, safeXid, safeId, afterXid, afterId, passXmin] = parts;
  if (
    parts.length !== 6 ||
    tag !== 'pg' ||
    safeXid === undefined ||
    !digits.test(safeXid) ||
    afterXid === undefined ||
    !digits.test(afterXid) ||
    passXmin === undefined ||
    (passXmin !== '-' && !digits.test(passXmin))
  ) {
    throw new RangeError(`not a scan cursor: ${cursor}`);
  }
  return {
    safe: { xid: safeXid, id: safeId ?? '' },
    after: { xid: afterXid, id: afterId ?? '' },
    passXmin: passXmin === '-' ? null : passXmin,
  };
}
