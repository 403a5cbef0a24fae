import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { BulkAnswerStore, BulkClaim, BulkClaimResult } from '../../ports/bulk-answers.js';
import { heldFromRow, type HeldBulkRow } from '../sql/bulk-answer-sql.js';
import { guardMariaDb, isDuplicateEntry } from './mariadb-errors.js';
import { inTransaction } from './mariadb-transaction.js';

interface BulkRow extends HeldBulkRow, RowDataPacket {
  created_at: number;
}

/** A claim that met a row inserted or released meanwhile tries again; never for long. */
const MAX_CLAIM_ATTEMPTS = 3;

/** Thrown inside a claim's transaction when another claim inserted the key first. */
class ClaimedMeanwhile extends Error {}

/**
 * Bulk answers on MariaDB (ADR 0120, ADR 0140), on the primary pool. PostgreSQL's claim is
 * one conditional upsert; MariaDB's ON DUPLICATE KEY UPDATE cannot say whether it inserted
 * or found a row (the pool counts found rows), so a claim is a short transaction instead:
 * lock the record if there is one, then insert, take over a void one, or say what it holds.
 */
export class MariaDbBulkAnswers implements BulkAnswerStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async claim(claim: BulkClaim): Promise<BulkClaimResult> {
    return guardMariaDb('claim the idempotency key', async () => {
      for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
        try {
          return await inTransaction(this.#pool, (connection) => claimIn(connection, claim));
        } catch (error) {
          if (!(error instanceof ClaimedMeanwhile)) throw error;
        }
      }
      throw new Error('The idempotency key was claimed and released again and again.');
    });
  }

  async answer(owner: string, key: string, answer: string): Promise<void> {
    await guardMariaDb('keep the answer', () =>
      this.#pool.query('UPDATE bulk_answers SET answer = ? WHERE owner = ? AND `key` = ?', [
        answer,
        owner,
        key,
      ]),
    );
  }

  async release(owner: string, key: string): Promise<void> {
    await guardMariaDb('release the idempotency key', () =>
      this.#pool.query(
        'DELETE FROM bulk_answers WHERE owner = ? AND `key` = ? AND answer IS NULL',
        [owner, key],
      ),
    );
  }

  async purge(olderThanMs: number, limit: number): Promise<number> {
    return guardMariaDb('purge bulk answers', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(
        'DELETE FROM bulk_answers WHERE created_at < ? ORDER BY created_at LIMIT ?',
        [olderThanMs, limit],
      );
      return result.affectedRows;
    });
  }
}

/**
 * One claim, in a transaction. The record's lock (FOR UPDATE) makes a concurrent claim of
 * the same key wait and then see this one's row. With no record, the insert decides: a
 * concurrent insert of the key makes it a duplicate, and the claim runs again to read the
 * winner. On a Galera cluster two nodes' inserts meet at COMMIT instead, and inTransaction
 * runs the loser again.
 */
async function claimIn(connection: PoolConnection, claim: BulkClaim): Promise<BulkClaimResult> {
  const [rows] = await connection.query<BulkRow[]>(
    `SELECT request_hash, secrets_hash, answer, created_at FROM bulk_answers
     WHERE owner = ? AND \`key\` = ? FOR UPDATE`,
    [claim.owner, claim.key],
  );
  const row = rows[0];
  if (row === undefined) {
    try {
      await connection.query(
        `INSERT INTO bulk_answers (owner, \`key\`, request_hash, secrets_hash, answer, created_at)
         VALUES (?, ?, ?, ?, NULL, ?)`,
        [claim.owner, claim.key, claim.requestHash, claim.secretsHash, claim.nowMs],
      );
    } catch (error) {
      if (isDuplicateEntry(error)) throw new ClaimedMeanwhile();
      throw error;
    }
    return { kind: 'claimed' };
  }
  const abandoned = row.answer === null && row.created_at < claim.pendingNotBefore;
  if (row.created_at >= claim.notBefore && !abandoned) return heldFromRow(row);
  await connection.query(
    `UPDATE bulk_answers SET request_hash = ?, secrets_hash = ?, answer = NULL, created_at = ?
     WHERE owner = ? AND \`key\` = ?`,
    [claim.requestHash, claim.secretsHash, claim.nowMs, claim.owner, claim.key],
  );
  return { kind: 'claimed' };
}
