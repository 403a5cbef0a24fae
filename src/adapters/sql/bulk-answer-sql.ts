import type { BulkClaimResult } from '../../ports/bulk-answers.js';

/**
 * The bulk answers' statements (ADR 0120), the same on SQLite and PostgreSQL; `p` names
 * the adapter's placeholder of a parameter. A claim is one statement: it inserts the row,
 * or takes over a void one (too old, or unanswered and abandoned), and changes no row
 * when a live record holds the key, which the caller then reads.
 */
export type Placeholder = (name: BulkParameter) => string;

export type BulkParameter =
  | 'owner'
  | 'key'
  | 'requestHash'
  | 'secretsHash'
  | 'nowMs'
  | 'notBefore'
  | 'pendingNotBefore'
  | 'answer'
  | 'limit';

export function claimBulkSql(p: Placeholder): string {
  return `INSERT INTO bulk_answers (owner, key, request_hash, secrets_hash, answer, created_at)
    VALUES (${p('owner')}, ${p('key')}, ${p('requestHash')}, ${p('secretsHash')}, NULL, ${p('nowMs')})
    ON CONFLICT (owner, key) DO UPDATE SET request_hash = excluded.request_hash,
      secrets_hash = excluded.secrets_hash, answer = NULL, created_at = excluded.created_at
    WHERE bulk_answers.created_at < ${p('notBefore')}
      OR (bulk_answers.answer IS NULL AND bulk_answers.created_at < ${p('pendingNotBefore')})`;
}

export function heldBulkSql(p: Placeholder): string {
  return `SELECT request_hash, secrets_hash, answer FROM bulk_answers
    WHERE owner = ${p('owner')} AND key = ${p('key')}`;
}

export function answerBulkSql(p: Placeholder): string {
  return `UPDATE bulk_answers SET answer = ${p('answer')}
    WHERE owner = ${p('owner')} AND key = ${p('key')}`;
}

export function releaseBulkSql(p: Placeholder): string {
  return `DELETE FROM bulk_answers
    WHERE owner = ${p('owner')} AND key = ${p('key')} AND answer IS NULL`;
}

export function purgeBulkSql(p: Placeholder): string {
  return `DELETE FROM bulk_answers WHERE (owner, key) IN (
    SELECT owner, key FROM bulk_answers WHERE created_at < ${p('notBefore')}
    ORDER BY created_at LIMIT ${p('limit')})`;
}

export interface HeldBulkRow {
  readonly request_hash: string;
  readonly secrets_hash: string | null;
  readonly answer: string | null;
}

export function heldFromRow(row: HeldBulkRow): BulkClaimResult {
  return {
    kind: 'held',
    requestHash: row.request_hash,
    secretsHash: row.secrets_hash,
    answer: row.answer,
  };
}
