/**
 * The redirect allowance's statements (issue 21 `max_clicks`, ADR 0111), the same on SQLite
 * and PostgreSQL; `linkId` and `limit` are the adapter's placeholders.
 *
 * A take is one statement: the first creates the row at 1, later ones add 1 only while the
 * count is below the limit. It changes one row when a redirect was taken and none once the
 * budget is spent, so the caller reads the answer from the number of rows changed. The
 * column is qualified: PostgreSQL would find a bare `taken` ambiguous with `excluded.taken`.
 */
export function takeRedirectSql(linkId: string, limit: string): string {
  return `INSERT INTO redirect_allowances (link_id, taken) VALUES (${linkId}, 1)
    ON CONFLICT (link_id) DO UPDATE SET taken = redirect_allowances.taken + 1
    WHERE redirect_allowances.taken < ${limit}`;
}

export function takenRedirectsSql(linkId: string): string {
  return `SELECT taken FROM redirect_allowances WHERE link_id = ${linkId}`;
}

export function forgetRedirectsSql(linkId: string): string {
  return `DELETE FROM redirect_allowances WHERE link_id = ${linkId}`;
}

/** Refuses a limit a take cannot honour, before any write: a caller's bug, never a 4xx. */
export function assertRedirectLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`A redirect limit is a whole number of at least 1, not ${limit}.`);
  }
}
