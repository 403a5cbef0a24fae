import type { Visit } from '../../domain/click-visits.js';
import type { StoredVisit, VisitPosition } from '../../ports/visit-log.js';

/** A row of the visit log: one fold bucket's alike visits, `clicks` of them (ADR 0130). */
export interface VisitLogRow {
  readonly id: number;
  readonly visit: Visit;
  readonly clicks: number;
}

/**
 * How many rows a page reads for `limit` visits: each row holds at least one, and after a
 * position the first row read is that position's own, which may hold none still to give.
 */
export function rowsForPage(after: VisitPosition | null, limit: number): number {
  return after === null ? limit : limit + 1;
}

/**
 * The visits of `rows` (newest first, the position's own row first when there is one), up
 * to `limit`, skipping those of the position's row it has given already.
 */
export function visitsOfRows(
  rows: readonly VisitLogRow[],
  after: VisitPosition | null,
  limit: number,
): StoredVisit[] {
  const visits: StoredVisit[] = [];
  for (const row of rows) {
    const given = after !== null && row.id === after.id && row.visit.at === after.at;
    for (let ordinal = given ? after.ordinal + 1 : 1; ordinal <= row.clicks; ordinal++) {
      if (visits.length === limit) return visits;
      visits.push({ ...row.visit, id: row.id, ordinal });
    }
  }
  return visits;
}
