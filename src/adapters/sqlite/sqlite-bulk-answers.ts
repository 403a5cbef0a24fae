import type Database from 'better-sqlite3';
import type { BulkAnswerStore, BulkClaim, BulkClaimResult } from '../../ports/bulk-answers.js';
import {
  answerBulkSql,
  claimBulkSql,
  heldBulkSql,
  heldFromRow,
  purgeBulkSql,
  releaseBulkSql,
  type HeldBulkRow,
} from '../sql/bulk-answer-sql.js';
import { guardSqlite } from './sqlite-errors.js';

const named = (name: string) => `@${name}`;

/** Bulk answers in hop.db (ADR 0120): one writer at a time decides every claim. */
export class SqliteBulkAnswers implements BulkAnswerStore {
  readonly #claim: Database.Transaction<(claim: BulkClaim) => BulkClaimResult>;
  readonly #answer: Database.Statement;
  readonly #release: Database.Statement;
  readonly #purge: Database.Statement;

  constructor(db: Database.Database) {
    const claim = db.prepare(claimBulkSql(named));
    const held = db.prepare<{ owner: string; key: string }, HeldBulkRow>(heldBulkSql(named));
    this.#claim = db.transaction((request: BulkClaim): BulkClaimResult => {
      const { owner, key, requestHash, secretsHash, nowMs, notBefore, pendingNotBefore } = request;
      const parameters = { owner, key, requestHash, secretsHash, nowMs };
      if (claim.run({ ...parameters, notBefore, pendingNotBefore }).changes === 1) {
        return { kind: 'claimed' };
      }
      const row = held.get({ owner, key });
      // The claim changed nothing, so a row holds the key (in this same transaction).
      if (row === undefined) throw new Error('A bulk answer vanished inside its transaction.');
      return heldFromRow(row);
    });
    this.#answer = db.prepare(answerBulkSql(named));
    this.#release = db.prepare(releaseBulkSql(named));
    this.#purge = db.prepare(purgeBulkSql(named));
  }

  async claim(claim: BulkClaim): Promise<BulkClaimResult> {
    return guardSqlite('claim the idempotency key', () => this.#claim.immediate(claim));
  }

  async answer(owner: string, key: string, answer: string): Promise<void> {
    guardSqlite('keep the answer', () => this.#answer.run({ owner, key, answer }));
  }

  async release(owner: string, key: string): Promise<void> {
    guardSqlite('release the idempotency key', () => this.#release.run({ owner, key }));
  }

  async purge(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite(
      'purge bulk answers',
      () => this.#purge.run({ notBefore: olderThanMs, limit }).changes,
    );
  }
}
