import type pg from 'pg';
import type { Link } from '../../domain/link.js';
import type { IdempotencyClaim, InsertLinkResult } from '../../ports/link-repository.js';
import { LINK_COLUMNS, recordFromRow, type IdempotencyRow } from '../sql/link-sql.js';
import { previewColumnOf, smartColumnOf } from '../sql/smart-column.js';
import { inTransaction } from './pg-transaction.js';

export const INSERT_LINK = `INSERT INTO links (${LINK_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
  ON CONFLICT (domain, code) DO NOTHING`;

/**
 * Inserts `link` and claims its idempotency key in one transaction. Null when a concurrent
 * request with the same key committed first: ours rolled back with its link, and the
 * caller answers with theirs.
 */
export async function insertWithClaim(
  primary: pg.Pool,
  link: Link,
  claim: IdempotencyClaim,
): Promise<InsertLinkResult | null> {
  return inTransaction(primary, (client) => claimThenInsert(client, link, claim)).catch(
    (error: unknown) => {
      if (error instanceof CodeTaken) return { kind: 'code-taken' } as const;
      if (error instanceof ClaimTakenMeanwhile) return null;
      throw error;
    },
  );
}

/** Thrown inside the claim's transaction to roll it back when another request won the key. */
class ClaimTakenMeanwhile extends Error {}
/** Thrown inside the claim's transaction to roll the claim back when the code is taken. */
class CodeTaken extends Error {}

/**
 * The claim is written before the link: a concurrent request with the same key waits on
 * it (the primary key's lock) and then replays the winner, even when both asked for the
 * same alias, as SQLite's single writer does. A taken code rolls the claim back with it.
 */
async function claimThenInsert(
  client: pg.PoolClient,
  link: Link,
  claim: IdempotencyClaim,
): Promise<InsertLinkResult> {
  const { rows } = await client.query<IdempotencyRow>(
    `SELECT owner, key, request_hash, response, created_at FROM idempotency_records
     WHERE owner = $1 AND key = $2 FOR UPDATE`,
    [claim.owner, claim.key],
  );
  const existing = rows[0];
  if (existing !== undefined) {
    if (existing.created_at >= claim.notBefore) {
      return { kind: 'replayed', record: recordFromRow(existing) };
    }
    await client.query('DELETE FROM idempotency_records WHERE owner = $1 AND key = $2', [
      claim.owner,
      claim.key,
    ]);
  }
  const claimed = await client.query(
    `INSERT INTO idempotency_records (owner, key, request_hash, link_id, response, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (owner, key) DO NOTHING`,
    [claim.owner, claim.key, claim.requestHash, link.id, JSON.stringify(link), link.createdAt],
  );
  if (claimed.rowCount === 0) throw new ClaimTakenMeanwhile();
  const inserted = await client.query(INSERT_LINK, linkParams(link));
  if (inserted.rowCount === 0) throw new CodeTaken();
  return { kind: 'inserted', link };
}

export function linkParams(link: Link): unknown[] {
  return [
    link.id,
    link.code,
    link.owner,
    link.destination,
    link.statusCode,
    link.state,
    link.custom,
    link.title,
    JSON.stringify(link.tags),
    link.createdAt,
    link.updatedAt,
    link.expiresAt,
    link.deletedAt,
    link.version,
    smartColumnOf(link.smart),
    link.domain,
    previewColumnOf(link.preview),
    link.crawlable,
  ];
}
