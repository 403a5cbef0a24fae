import type Database from 'better-sqlite3';
import type { CodeScanPage, LinkCodeScan } from '../../ports/link-code-scan.js';
import { splitLinkKey } from '../../domain/link-domain.js';
import { guardSqlite } from './sqlite-errors.js';

/** A row's link key (ADR 0115): its code on the default domain, `host/code` elsewhere. */
const LINK_KEY_SQL = "CASE domain WHEN '' THEN code ELSE domain || '/' || code END";

/**
 * Where a scan of codes stands: walking the code index (every row up to `untilRowid` is
 * there), or reading rows added after that, by rowid.
 */
type ScanPosition =
  | { readonly phase: 'codes'; readonly untilRowid: number; readonly afterCode: string }
  | { readonly phase: 'rows'; readonly afterRowid: number };

function rowsCursor(afterRowid: number): string {
  return `rows:${afterRowid}`;
}

/** `codes:<untilRowid>:<afterKey>` or `rows:<afterRowid>`; link keys never contain ':'. */
function parseScanCursor(cursor: string): ScanPosition {
  const [phase, first = '', rest = ''] = cursor.split(':');
  const rowid = Number(first);
  if (!Number.isSafeInteger(rowid)) throw new RangeError(`not a scan cursor: ${cursor}`);
  if (phase === 'rows') return { phase, afterRowid: rowid };
  if (phase === 'codes') return { phase, untilRowid: rowid, afterCode: rest };
  throw new RangeError(`not a scan cursor: ${cursor}`);
}

/**
 * A first scan walks the unique index on (domain, code), which holds nothing but keys (a tenth of
 * the table: reading the table would push the redirect's index out of the page cache).
 * Rows added since that scan began are found by rowid, which is commit order: SQLite has
 * one writer, and a new row takes max(rowid) + 1. That holds while max(rowid) never goes
 * down: links leave tombstones (SPEC §3), and the sweeper, which does delete rows, never
 * deletes the one with the largest rowid (SqliteSweepQueries.deleteReclaimed).
 */
export class SqliteCodeScan implements LinkCodeScan {
  readonly #codesAfter: Database.Statement<[number, number], [number, string]>;
  readonly #codesInOrder: Database.Statement<[string, string, number], string>;
  readonly #lastRowid: Database.Statement<[], number | null>;

  constructor(db: Database.Database) {
    this.#codesInOrder = db
      .prepare<[string, string, number], string>(
        `SELECT ${LINK_KEY_SQL} FROM links WHERE (domain, code) > (?, ?) ORDER BY domain, code LIMIT ?`,
      )
      .pluck();
    this.#lastRowid = db.prepare<[], number | null>('SELECT max(rowid) FROM links').pluck();
    this.#codesAfter = db
      .prepare<[number, number], [number, string]>(
        `SELECT rowid, ${LINK_KEY_SQL} FROM links WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      )
      .raw();
  }

  async scanCodes(cursor: string | null, limit: number): Promise<CodeScanPage> {
    return guardSqlite('scan codes', () => {
      const position = cursor === null ? this.#firstScanPosition() : parseScanCursor(cursor);
      if (position.phase === 'rows') {
        const rows = this.#codesAfter.all(position.afterRowid, limit);
        const last = rows.at(-1);
        return {
          codes: rows.map((row) => row[1]),
          cursor: last === undefined ? rowsCursor(position.afterRowid) : rowsCursor(last[0]),
        };
      }
      const after = splitLinkKey(position.afterCode);
      const codes = this.#codesInOrder.all(after.domain, after.code, limit);
      const last = codes.at(-1);
      return {
        codes,
        // The index is done: from now on, rows added after the first scan began.
        cursor:
          last === undefined || codes.length < limit
            ? rowsCursor(position.untilRowid)
            : `codes:${position.untilRowid}:${last}`,
      };
    });
  }

  /** The largest rowid: every row has one at most that (see the class comment), O(log n). */
  async estimateCodeCount(): Promise<number> {
    return guardSqlite('count codes', () => this.lastRowid());
  }

  /** `estimateCodeCount`, synchronously: for sizing the store's own page cache at open. */
  lastRowid(): number {
    return this.#lastRowid.get() ?? 0;
  }

  #firstScanPosition(): ScanPosition {
    return { phase: 'codes', untilRowid: this.lastRowid(), afterCode: '' };
  }
}
