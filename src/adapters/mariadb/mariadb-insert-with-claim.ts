import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import type { Link } from '../../domain/link.js';
import type { IdempotencyClaim, InsertLinkResult } from '../../ports/link-repository.js';
import { recordFromRow, type IdempotencyRow } from '../sql/link-sql.js';
import { INSERT_LINK, isCodeTaken, linkValues } from './mariadb-link-rows.js';
import { inTransaction } from './mariadb-transaction.js';

/** An idempotency record as read back after claiming: whose link it holds says who won. */
interface ClaimedRow extends IdempotencyRow, RowDataPacket {
  link_id: string;
}

export const IDEMPOTENCY_COLUMNS = 'owner, `key`, request_hash, response, created_at';

/** Thrown inside the claim's transaction to roll the claim back when the code is taken. */
class CodeTaken extends Error {}

/** The record of the claim's key, if any, and whether the link's code is held: one view. */
interface LookRow extends RowDataPacket {
  owner: string | null;
  key: string | null;
  request_hash: string | null;
  response: string | null;
  created_at: number | null;
  code_held: number;
}

/**
 * Inserts `link` and claims its idempotency key in one transaction: both are written or
 * neither. A concurrent request with the same key waits for the first to end and then
 * replays its link, even when both asked for the same alias (as on SQLite and PostgreSQL).
 * On a Galera cluster, two nodes' claims of one key meet at COMMIT: the loser's transaction
 * is run again by inTransaction and replays the winner's link (ADR 0140).
 */
export async function insertWithClaim(
  pool: Pool,
  link: Link,
  claim: IdempotencyClaim,
): Promise<InsertLinkResult> {
  const seen = await lookBefore(pool, link, claim);
  if (seen !== null) return seen;
  try {
    return await inTransaction(pool, (connection) => claimThenInsert(connection, link, claim));
  } catch (error) {
    if (error instanceof CodeTaken) return { kind: 'code-taken' };
    throw error;
  }
}

/**
 * A retry's answer without a lock or a transaction: the live record's replay, or, with no
 * live record, a code already held. One statement reads both tables in one view, and a
 * record commits with its link, so the link this key's first request made is never taken
 * for another's. It also keeps the claim's rollback rare: when a claim rolls back (its code
 * taken since this read), the requests waiting on its record meet on the gap it leaves, and
 * InnoDB makes some of them deadlock victims, which inTransaction runs again (ADR 0140).
 */
async function lookBefore(
  pool: Pool,
  link: Link,
  claim: IdempotencyClaim,
): Promise<InsertLinkResult | null> {
  const [rows] = await pool.query<LookRow[]>(
    `SELECT record.owner, record.\`key\`, record.request_hash, record.response, record.created_at,
       (SELECT COUNT(*) FROM links WHERE domain = ? AND code = ?) AS code_held
     FROM (SELECT 1) AS probe
     LEFT JOIN idempotency_records AS record ON record.owner = ? AND record.\`key\` = ?`,
    [link.domain, link.code, claim.owner, claim.key],
  );
  const row = rows[0];
  if (row === undefined) return null;
  // The record's columns are NOT NULL: created_at is null only when there is no record.
  if (row.created_at !== null && row.created_at >= claim.notBefore) {
    return { kind: 'replayed', record: recordFromRow(row as IdempotencyRow) };
  }
  return row.code_held > 0 ? { kind: 'code-taken' } : null;
}

/**
 * The claim is written before the link. INSERT … ON DUPLICATE KEY UPDATE with a no-op
 * update either inserts the claim or waits for and locks (exclusively) the record already
 * there: a plain INSERT would take a shared lock on it instead, and its waiters deadlock
 * each other when the first claimer rolls back (its code taken). Whose link the record
 * then holds says whether this request claimed the key: link ids are unique. It is read
 * FOR UPDATE, the latest committed version whatever the session's isolation. A void record
 * (older than `notBefore`) is taken over under the same lock.
 */
async function claimThenInsert(
  connection: PoolConnection,
  link: Link,
  claim: IdempotencyClaim,
): Promise<InsertLinkResult> {
  const response = JSON.stringify(link);
  await connection.query(
    `INSERT INTO idempotency_records (owner, \`key\`, request_hash, link_id, response, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE owner = owner`,
    [claim.owner, claim.key, claim.requestHash, link.id, response, link.createdAt],
  );
  const [rows] = await connection.query<ClaimedRow[]>(
    `SELECT ${IDEMPOTENCY_COLUMNS}, link_id FROM idempotency_records
     WHERE owner = ? AND \`key\` = ? FOR UPDATE`,
    [claim.owner, claim.key],
  );
  const held = rows[0];
  if (held === undefined) throw new Error('the idempotency record vanished while claiming it');
  if (held.link_id !== link.id) {
    if (held.created_at >= claim.notBefore) {
      return { kind: 'replayed', record: recordFromRow(held) };
    }
    await connection.query(
      `UPDATE idempotency_records SET request_hash = ?, link_id = ?, response = ?, created_at = ?
       WHERE owner = ? AND \`key\` = ?`,
      [claim.requestHash, link.id, response, link.createdAt, claim.owner, claim.key],
    );
  }
  try {
    await connection.query(INSERT_LINK, linkValues(link));
  } catch (error) {
    if (isCodeTaken(error)) throw new CodeTaken();
    throw error;
  }
  return { kind: 'inserted', link };
}
