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
  try {
    return await inTransaction(pool, (connection) => claimThenInsert(connection, link, claim));
  } catch (error) {
    if (error instanceof CodeTaken) return { kind: 'code-taken' };
    throw error;
  }
}

/**
 * The claim is written before the link. INSERT … ON DUPLICATE KEY UPDATE with a no-op
 * update either inserts the claim or waits for and locks (exclusively) the record already
 * there: a plain INSERT would take a shared lock on it instead, and its waiters deadlock
 * each other when the first claimer rolls back (its code taken). Whose link the record
 * then holds says whether this request claimed the key: link ids are unique. A void record
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
     WHERE owner = ? AND \`key\` = ?`,
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
