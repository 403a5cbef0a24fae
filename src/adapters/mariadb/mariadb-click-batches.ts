import type { PoolConnection } from 'mysql2/promise';

/**
 * Rows one multi-row INSERT of a fold sends: a fold of many links and seconds stays far
 * below `max_allowed_packet` (16 MiB by default) and each statement's write set small.
 */
const ROWS_PER_STATEMENT = 1_000;

/** A value of a row the driver escapes into the statement. */
export type SqlValue = string | number | boolean | null;

/**
 * Runs `insert`, whose `VALUES ?` takes a list of rows (the driver writes `(…), (…)`), for
 * every `ROWS_PER_STATEMENT` rows of `rows`, in order, on the fold's connection.
 */
export async function insertInBatches(
  connection: PoolConnection,
  insert: string,
  rows: readonly (readonly SqlValue[])[],
): Promise<void> {
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    await connection.query(insert, [rows.slice(from, from + ROWS_PER_STATEMENT)]);
  }
}
