import type pg from 'pg';
import type { BulkAnswerStore, BulkClaim, BulkClaimResult } from '../../ports/bulk-answers.js';
import {
  answerBulkSql,
  claimBulkSql,
  heldBulkSql,
  heldFromRow,
  purgeBulkSql,
  releaseBulkSql,
  type BulkParameter,
  type HeldBulkRow,
} from '../sql/bulk-answer-sql.js';
import { guardPg } from './pg-errors.js';

/** `$n` of each parameter, in the order `values` lists them. */
function positional(order: readonly BulkParameter[]): (name: BulkParameter) => string {
  return (name) => `$${order.indexOf(name) + 1}`;
}

const CLAIM_ORDER = [
  'owner',
  'key',
  'requestHash',
  'secretsHash',
  'nowMs',
  'notBefore',
  'pendingNotBefore',
] as const;
const CLAIM = claimBulkSql(positional(CLAIM_ORDER));
const HELD = heldBulkSql(positional(['owner', 'key']));
const ANSWER = answerBulkSql(positional(['owner', 'key', 'answer']));
const RELEASE = releaseBulkSql(positional(['owner', 'key']));
const PURGE = purgeBulkSql(positional(['notBefore', 'limit']));
/** A claim that met a row released before it could be read tries again; never for long. */
const MAX_CLAIM_ATTEMPTS = 3;

/**
 * Bulk answers on PostgreSQL (ADR 0120), on the primary. A claim is one upsert: two claims
 * of one key at once wait on its row's lock, and the second sees the first's row.
 */
export class PgBulkAnswers implements BulkAnswerStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async claim(claim: BulkClaim): Promise<BulkClaimResult> {
    return guardPg('claim the idempotency key', async () => {
      for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
        const values = CLAIM_ORDER.map((name) => claim[name]);
        if ((await this.#pool.query(CLAIM, values)).rowCount === 1) return { kind: 'claimed' };
        const { rows } = await this.#pool.query<HeldBulkRow>(HELD, [claim.owner, claim.key]);
        const row = rows[0];
        if (row !== undefined) return heldFromRow(row);
      }
      throw new Error('The idempotency key was claimed and released again and again.');
    });
  }

  async answer(owner: string, key: string, answer: string): Promise<void> {
    await guardPg('keep the answer', () => this.#pool.query(ANSWER, [owner, key, answer]));
  }

  async release(owner: string, key: string): Promise<void> {
    await guardPg('release the idempotency key', () => this.#pool.query(RELEASE, [owner, key]));
  }

  async purge(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('purge bulk answers', async () => {
      const result = await this.#pool.query(PURGE, [olderThanMs, limit]);
      return result.rowCount ?? 0;
    });
  }
}
