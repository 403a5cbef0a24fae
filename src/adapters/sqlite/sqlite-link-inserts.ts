import type Database from 'better-sqlite3';
import { LINK_COLUMNS, type IdempotencyRow } from '../sql/link-sql.js';
import type { LinkRow } from './sqlite-link-rows.js';

/**
 * The `link.created` events of the links after a rowid, in rowid (insertion) order: the row
 * as JSON, as migration 0018's trigger writes a change's (ADR 0127). It occurs when written
 * (updated_at, a create's created_at): an imported link keeps an older creation time (ADR 0136).
 */
const CREATED_EVENTS_AFTER_ROWID = `INSERT INTO link_events (type, occurred_at, link)
  SELECT 'link.created', updated_at, json_object('id', id, 'code', code, 'owner', owner,
    'destination', destination, 'status_code', status_code, 'state', state, 'custom', custom,
    'title', title, 'tags', tags, 'created_at', created_at, 'updated_at', updated_at,
    'expires_at', expires_at, 'deleted_at', deleted_at, 'version', version, 'smart', smart,
    'domain', domain, 'preview', preview, 'crawlable', crawlable)
  FROM links WHERE rowid > ? ORDER BY rowid`;

/** An idempotency claim as it is written: the response already rendered as JSON. */
export interface ClaimToWrite {
  readonly owner: string;
  readonly key: string;
  readonly requestHash: string;
  /** Records older than this (epoch ms) are void and may be replaced. */
  readonly notBefore: number;
  readonly linkId: string;
  readonly response: string;
  readonly createdAt: number;
}

/** What inserting one link's row did; plain data, so that it crosses a thread as it is. */
export type RowInsertResult =
  | { readonly kind: 'inserted' }
  | { readonly kind: 'code-taken' }
  /** A live claim for the same owner and key exists: nothing was written. */
  | { readonly kind: 'replayed'; readonly record: IdempotencyRow };

/**
 * A link's insert with its created event (ADR 0127), and with its idempotency claim when
 * it has one, in one transaction; and a batch of inserts in one. Rows, not links: the
 * link insert thread (ADR 0144) runs these on its own connection from rows made on the
 * event loop, and the repository runs them on its own.
 */
export class SqliteLinkInserts {
  readonly #insert: Database.Statement;
  readonly #createdEvents: Database.Statement<[number | bigint]>;
  readonly #maxRowid: Database.Statement<[], { rowid: number | null }>;
  readonly #findClaim: Database.Statement<[string, string], IdempotencyRow>;
  readonly #deleteClaim: Database.Statement<[string, string]>;
  readonly #insertClaim: Database.Statement;
  readonly #insertWithEvent: Database.Transaction<(row: LinkRow) => boolean>;
  readonly #insertWithClaim: Database.Transaction<
    (row: LinkRow, claim: ClaimToWrite) => RowInsertResult
  >;
  readonly #importBatch: Database.Transaction<(rows: readonly LinkRow[]) => number>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO links (${LINK_COLUMNS}) VALUES (@id, @code, @owner, @destination, @status_code, @state,
        @custom, @title, @tags, @created_at, @updated_at, @expires_at, @deleted_at, @version, @smart, @domain, @preview,
        @crawlable)
       ON CONFLICT (domain, code) DO NOTHING`,
    );
    this.#createdEvents = db.prepare(CREATED_EVENTS_AFTER_ROWID);
    this.#maxRowid = db.prepare('SELECT max(rowid) AS rowid FROM links');
    this.#findClaim = db.prepare(
      'SELECT owner, key, request_hash, response, created_at FROM idempotency_records WHERE owner = ? AND key = ?',
    );
    this.#deleteClaim = db.prepare('DELETE FROM idempotency_records WHERE owner = ? AND key = ?');
    this.#insertClaim = db.prepare(
      `INSERT INTO idempotency_records (owner, key, request_hash, link_id, response, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#insertWithEvent = db.transaction((row: LinkRow) => this.#insertOne(row));
    // One transaction: look for a live claim, else insert the link and the claim together.
    this.#insertWithClaim = db.transaction((row: LinkRow, claim: ClaimToWrite) => {
      const existing = this.#findClaim.get(claim.owner, claim.key);
      if (existing !== undefined) {
        if (existing.created_at >= claim.notBefore) {
          return { kind: 'replayed', record: existing } as const;
        }
        this.#deleteClaim.run(claim.owner, claim.key);
      }
      if (!this.#insertOne(row)) return { kind: 'code-taken' } as const;
      this.#insertClaim.run(
        claim.owner,
        claim.key,
        claim.requestHash,
        claim.linkId,
        claim.response,
        claim.createdAt,
      );
      return { kind: 'inserted' } as const;
    });
    // The events by one statement for all the rows the batch inserted (the rows after the
    // highest rowid before it).
    this.#importBatch = db.transaction((rows: readonly LinkRow[]) => {
      const before = this.#maxRowid.get()?.rowid ?? 0;
      let inserted = 0;
      for (const row of rows) inserted += this.#insert.run(row).changes;
      if (inserted > 0) this.#createdEvents.run(before);
      return inserted;
    });
  }

  /** Inserts one link's row (and its claim), BEGIN IMMEDIATE; throws the driver's errors. */
  insert(row: LinkRow, claim: ClaimToWrite | undefined): RowInsertResult {
    if (claim !== undefined) return this.#insertWithClaim.immediate(row, claim);
    return this.#insertWithEvent.immediate(row) ? { kind: 'inserted' } : { kind: 'code-taken' };
  }

  /** The idempotency record of `owner` and `key`, live or not; throws the driver's errors. */
  findClaim(owner: string, key: string): IdempotencyRow | undefined {
    return this.#findClaim.get(owner, key);
  }

  /** Inserts the rows whose codes are free, in one transaction; how many went in. */
  importRows(rows: readonly LinkRow[]): number {
    return this.#importBatch.immediate(rows);
  }

  /** Inserts `row` and its created event, inside the caller's transaction; false if taken. */
  #insertOne(row: LinkRow): boolean {
    const inserted = this.#insert.run(row);
    if (inserted.changes === 0) return false;
    this.#createdEvents.run(BigInt(inserted.lastInsertRowid) - 1n);
    return true;
  }
}
