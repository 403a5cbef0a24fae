import type { RedirectStatus, StoredLinkState } from '../../domain/link.js';
import { smartFromColumn } from './smart-column.js';
import type { RedirectTarget } from '../../domain/redirect-target.js';

/**
 * The columns of the redirect's store read, and no others (SQLite reads them from one
 * covering index, migration 0003). Read as positional rows: no column names per row.
 */
export const REDIRECT_COLUMNS =
  'id, code, version, state, expires_at, status_code, destination, smart, crawlable';

/** A row of REDIRECT_COLUMNS, in their order. */
export type RedirectRow = [
  string,
  string,
  number,
  string,
  number | null,
  number,
  string,
  string | null,
  number | boolean,
];

export function redirectTargetOf(row: RedirectRow): RedirectTarget {
  return {
    linkId: row[0],
    code: row[1],
    version: row[2],
    state: row[3] as StoredLinkState,
    expiresAt: row[4],
    status: row[5] as RedirectStatus,
    location: row[6],
    smart: smartFromColumn(row[7]),
    // SQLite reads 0/1, PostgreSQL a boolean.
    crawlable: row[8] === true || row[8] === 1,
  };
}
