import type Database from 'better-sqlite3';
import { cachedLinkOf, type CachedLink } from '../../domain/cache-entry.js';
import type { Link, RedirectStatus, StoredLinkState } from '../../domain/link.js';
import type {
  CodeScan,
  IdempotencyClaim,
  IdempotencyRecord,
  InsertLinkResult,
  LinkQuery,
  LinkStore,
} from '../../ports/link-store.js';
import { guardSqlite } from './sqlite-errors.js';
import { recordFromRow, stateCondition, type IdempotencyRow } from '../sql/link-sql.js';

interface LinkRow {
  id: string;
  code: string;
  owner: string;
  destination: string;
  status_code: number;
  state: string;
  custom: number;
  title: string | null;
  tags: string;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  version: number;
}

/**
 * Where a scan of codes stands: walking the code index (every row up to `untilRowid` is
 * there), or reading rows added after that, by rowid.
 */
type ScanPosition =
  | { readonly phase: 'codes'; readonly untilRowid: number; readonly afterCode: string }
  | { readonly phase: 'rows'; readonly afterRowid: number };

function rowsCursor(afterRowid: number): string {
  return `rows:${afterRowid}`;
}

/** `codes:<untilRowid>:<afterCode>` or `rows:<afterRowid>`; codes never contain ':'. */
function parseScanCursor(cursor: string): ScanPosition {
  const [phase, first = '', rest = ''] = cursor.split(':');
  const rowid = Number(first);
  if (!Number.isSafeInteger(rowid)) throw new RangeError(`not a scan cursor: ${cursor}`);
  if (phase === 'rows') return { phase, afterRowid: rowid };
  if (phase === 'codes') return { phase, untilRowid: rowid, afterCode: rest };
  throw new RangeError(`not a scan cursor: ${cursor}`);
}

/** id, code, version, state, expires_at, status_code, destination. */
type RedirectRow = [string, string, number, string, number | null, number, string];

const LINK_COLUMNS =
  'id, code, owner, destination, status_code, state, custom, title, tags, created_at, updated_at, expires_at, deleted_at, version';

export class SqliteLinkStore implements LinkStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #byId: Database.Statement<[string], LinkRow>;
  readonly #byCode: Database.Statement<[string], LinkRow>;
  readonly #redirectByCode: Database.Statement<[string], RedirectRow>;
  readonly #replace: Database.Statement;
  readonly #codesAfter: Database.Statement<[number, number], [number, string]>;
  readonly #codesInOrder: Database.Statement<[string, number], string>;
  readonly #lastRowid: Database.Statement<[], number | null>;
  readonly #findClaim: Database.Statement<[string, string], IdempotencyRow>;
  readonly #deleteClaim: Database.Statement<[string, string]>;
  readonly #insertClaim: Database.Statement;
  readonly #importBatch: Database.Transaction<(links: readonly Link[]) => number>;
  readonly #insertWithClaim: Database.Transaction<
    (link: Link, claim: IdempotencyClaim) => InsertLinkResult
  >;
  readonly #markExpired: Database.Transaction<(nowMs: number, limit: number) => LinkRow[]>;
  readonly #reclaimable: Database.Statement<{ older_than: number; limit: number }, LinkRow>;
  readonly #deleteReclaimed: Database.Transaction<
    (links: readonly { readonly id: string; readonly version: number }[]) => number
  >;
  readonly #purgeClaims: Database.Statement<{ older_than: number; limit: number }>;
  /** List statements by their SQL: the filters combine into a handful of shapes. */
  readonly #listStatements = new Map<
    string,
    Database.Statement<Record<string, unknown>, LinkRow>
  >();

  constructor(db: Database.Database) {
    this.#db = db;
    // SQLite's lower() folds only A-Z; search must fold "Über" like PostgreSQL does, so the
    // adapter uses JavaScript's Unicode case rules on both sides of the comparison.
    db.function('hop_fold', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    this.#insert = db.prepare(
      `INSERT INTO links (${LINK_COLUMNS}) VALUES (@id, @code, @owner, @destination, @status_code, @state,
        @custom, @title, @tags, @created_at, @updated_at, @expires_at, @deleted_at, @version)
       ON CONFLICT (code) DO NOTHING`,
    );
    this.#byId = db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`);
    this.#byCode = db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE code = ?`);
    // Positional rows, and only these columns: links_redirect (migration 0003) covers them,
    // so the read touches one index and never the table. Named, because the planner would
    // otherwise take the unique index on code and then read the table too.
    this.#redirectByCode = db
      .prepare<[string], RedirectRow>(
        'SELECT id, code, version, state, expires_at, status_code, destination FROM links INDEXED BY links_redirect WHERE code = ?',
      )
      .raw();
    this.#replace = db.prepare(
      `UPDATE links SET destination = @destination, status_code = @status_code, state = @state,
        title = @title, tags = @tags, updated_at = @updated_at, expires_at = @expires_at,
        deleted_at = @deleted_at, version = @version
       WHERE id = @id AND version = @expected_version`,
    );
    // scanCodes: a first scan walks the unique index on code, which holds nothing but codes
    // (a tenth of the table: reading the table would push the redirect's index out of the
    // page cache). Rows added since that scan began are found by rowid, which is commit
    // order: SQLite has one writer, and a new row takes max(rowid) + 1. That holds while
    // max(rowid) never goes down: links leave tombstones (SPEC §3), and the sweeper, which
    // does delete rows, never deletes the one with the largest rowid (deleteReclaimed).
    this.#codesInOrder = db
      .prepare<[string, number], string>(
        'SELECT code FROM links WHERE code > ? ORDER BY code LIMIT ?',
      )
      .pluck();
    this.#lastRowid = db.prepare<[], number | null>('SELECT max(rowid) FROM links').pluck();
    this.#codesAfter = db
      .prepare<[number, number], [number, string]>(
        'SELECT rowid, code FROM links WHERE rowid > ? ORDER BY rowid LIMIT ?',
      )
      .raw();
    this.#findClaim = db.prepare(
      'SELECT owner, key, request_hash, response, created_at FROM idempotency_records WHERE owner = ? AND key = ?',
    );
    this.#deleteClaim = db.prepare('DELETE FROM idempotency_records WHERE owner = ? AND key = ?');
    this.#insertClaim = db.prepare(
      `INSERT INTO idempotency_records (owner, key, request_hash, link_id, response, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#importBatch = db.transaction((links: readonly Link[]) => {
      let inserted = 0;
      for (const link of links) inserted += this.#insert.run(toRow(link)).changes;
      return inserted;
    });
    // One transaction: look for a live claim, else insert the link and the claim together.
    this.#insertWithClaim = db.transaction((link: Link, claim: IdempotencyClaim) => {
      const existing = this.#findClaim.get(claim.owner, claim.key);
      if (existing !== undefined) {
        if (existing.created_at >= claim.notBefore) {
          return { kind: 'replayed', record: recordFromRow(existing) } as const;
        }
        this.#deleteClaim.run(claim.owner, claim.key);
      }
      if (this.#insert.run(toRow(link)).changes === 0) return { kind: 'code-taken' } as const;
      this.#insertClaim.run(
        claim.owner,
        claim.key,
        claim.requestHash,
        link.id,
        JSON.stringify(link),
        link.createdAt,
      );
      return { kind: 'inserted', link } as const;
    });

    // The sweeper's statements (SPEC §7); migration 0005 gives each a partial index, and
    // each WHERE repeats its index's condition word for word, as SQLite needs to use it.
    // By rowid: the due-expiry index holds rowids, so the inner SELECT never reads the table.
    const markExpired = db.prepare<{ now: number; limit: number }, LinkRow>(
      `UPDATE links SET state = 'expired', updated_at = @now, version = version + 1
       WHERE rowid IN (
         SELECT rowid FROM links
         WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= @now
         ORDER BY expires_at LIMIT @limit)
       RETURNING ${LINK_COLUMNS}`,
    );
    this.#markExpired = db.transaction((nowMs: number, limit: number) =>
      markExpired.all({ now: nowMs, limit }),
    );
    // Never the row with the largest rowid: deleting it would let the next insert take its
    // rowid again, behind a scanCodes cursor, and the known-codes filter would never learn
    // of that link (a live link answered 404). It is reclaimed once a newer row exists.
    this.#reclaimable = db.prepare(
      `SELECT ${LINK_COLUMNS} FROM links
       WHERE custom = 0 AND state IN ('expired', 'deleted')
         AND coalesce(deleted_at, expires_at) <= @older_than
         AND rowid < (SELECT max(rowid) FROM links)
       ORDER BY coalesce(deleted_at, expires_at) LIMIT @limit`,
    );
    // Everything that made the row reclaimable is checked again, under the write lock: the
    // version (any change since the read keeps the row), custom, state and the newest row.
    const deleteOne = db.prepare<[string, number]>(
      `DELETE FROM links
       WHERE id = ? AND version = ? AND custom = 0 AND state IN ('expired', 'deleted')
         AND rowid < (SELECT max(rowid) FROM links)`,
    );
    this.#deleteReclaimed = db.transaction(
      (links: readonly { readonly id: string; readonly version: number }[]) => {
        let deleted = 0;
        for (const link of links) deleted += deleteOne.run(link.id, link.version).changes;
        return deleted;
      },
    );
    this.#purgeClaims = db.prepare(
      `DELETE FROM idempotency_records WHERE rowid IN (
         SELECT rowid FROM idempotency_records WHERE created_at < @older_than
         ORDER BY created_at LIMIT @limit)`,
    );
  }

  async insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult> {
    return guardSqlite('store the link', () => {
      if (idempotency !== undefined) return this.#insertWithClaim.immediate(link, idempotency);
      return this.#insert.run(toRow(link)).changes === 0
        ? { kind: 'code-taken' }
        : { kind: 'inserted', link };
    });
  }

  async findIdempotencyRecord(
    owner: string,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | null> {
    return guardSqlite('read the idempotency record', () => {
      const row = this.#findClaim.get(owner, key);
      return row === undefined || row.created_at < notBefore ? null : recordFromRow(row);
    });
  }

  async findLinkById(id: string): Promise<Link | null> {
    return guardSqlite('read the link', () => fromRowOrNull(this.#byId.get(id)));
  }

  async findLinkByCode(code: string): Promise<Link | null> {
    return guardSqlite('read the link', () => fromRowOrNull(this.#byCode.get(code)));
  }

  async findRedirectByCode(code: string): Promise<CachedLink | null> {
    return guardSqlite('read the link', () => {
      const row = this.#redirectByCode.get(code);
      return row === undefined
        ? null
        : cachedLinkOf(
            row[0],
            row[1],
            row[2],
            row[3] as StoredLinkState,
            row[4],
            row[5] as RedirectStatus,
            row[6],
          );
    });
  }

  async listLinks(query: LinkQuery): Promise<readonly Link[]> {
    return guardSqlite('list links', () => {
      const where: string[] = [];
      const params: Record<string, unknown> = { limit: query.limit, now: query.nowMs };
      if (query.owner !== undefined) {
        where.push('owner = @owner');
        params['owner'] = query.owner;
      }
      if (query.beforeId !== undefined) {
        where.push('id < @before_id');
        params['before_id'] = query.beforeId;
      }
      if (query.search !== undefined && query.search !== '') {
        where.push(
          `(instr(hop_fold(code), @search) > 0 OR instr(hop_fold(destination), @search) > 0
            OR instr(hop_fold(coalesce(title, '')), @search) > 0)`,
        );
        params['search'] = query.search.toLowerCase();
      }
      if (query.tag !== undefined) {
        where.push('EXISTS (SELECT 1 FROM json_each(links.tags) WHERE json_each.value = @tag)');
        params['tag'] = query.tag;
      }
      where.push(stateCondition(query.state, () => '@now'));
      const sql = `SELECT ${LINK_COLUMNS} FROM links WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit`;
      let statement = this.#listStatements.get(sql);
      if (statement === undefined) {
        statement = this.#db.prepare<Record<string, unknown>, LinkRow>(sql);
        this.#listStatements.set(sql, statement);
      }
      if (!sql.includes('@now')) delete params['now'];
      return statement.all(params).map(fromRow);
    });
  }

  async scanCodes(cursor: string | null, limit: number): Promise<CodeScan> {
    return guardSqlite('scan codes', () => {
      const position = cursor === null ? this.#firstScanPosition() : parseScanCursor(cursor);
      if (position.phase === 'rows') {
        const rows = this.#codesAfter.all(position.afterRowid, limit);
        const last = rows.at(-1);
        return {
          codes: rows.map((row) => row[1]),
          cursor: last === undefined ? rowsCursor(position.afterRowid) : rowsCursor(last[0]),
        };
      }
      const codes = this.#codesInOrder.all(position.afterCode, limit);
      const last = codes.at(-1);
      return {
        codes,
        // The index is done: from now on, rows added after the first scan began.
        cursor:
          last === undefined || codes.length < limit
            ? rowsCursor(position.untilRowid)
            : `codes:${position.untilRowid}:${last}`,
      };
    });
  }

  #firstScanPosition(): ScanPosition {
    return { phase: 'codes', untilRowid: this.#lastRowid.get() ?? 0, afterCode: '' };
  }

  async importLinks(links: readonly Link[]): Promise<number> {
    return guardSqlite('import links', () => this.#importBatch.immediate(links));
  }

  async markExpired(nowMs: number, limit: number): Promise<readonly Link[]> {
    return guardSqlite('mark expired links', () =>
      this.#markExpired.immediate(nowMs, limit).map(fromRow),
    );
  }

  async reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]> {
    return guardSqlite('find reclaimable links', () =>
      this.#reclaimable.all({ older_than: olderThanMs, limit }).map(fromRow),
    );
  }

  async deleteReclaimed(
    links: readonly { readonly id: string; readonly version: number }[],
  ): Promise<number> {
    if (links.length === 0) return 0;
    return guardSqlite('delete reclaimed links', () => this.#deleteReclaimed.immediate(links));
  }

  async purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite(
      'purge idempotency records',
      () => this.#purgeClaims.run({ older_than: olderThanMs, limit }).changes,
    );
  }

  async replaceLink(next: Link, expectedVersion: number): Promise<boolean> {
    return guardSqlite('update the link', () => {
      const row = toRow(next);
      const result = this.#replace.run({
        id: row.id,
        destination: row.destination,
        status_code: row.status_code,
        state: row.state,
        title: row.title,
        tags: row.tags,
        updated_at: row.updated_at,
        expires_at: row.expires_at,
        deleted_at: row.deleted_at,
        version: row.version,
        expected_version: expectedVersion,
      });
      return result.changes === 1;
    });
  }
}

function toRow(link: Link): LinkRow {
  return {
    id: link.id,
    code: link.code,
    owner: link.owner,
    destination: link.destination,
    status_code: link.statusCode,
    state: link.state,
    custom: link.custom ? 1 : 0,
    title: link.title,
    tags: JSON.stringify(link.tags),
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    expires_at: link.expiresAt,
    deleted_at: link.deletedAt,
    version: link.version,
  };
}

function fromRow(row: LinkRow): Link {
  return {
    id: row.id,
    code: row.code,
    owner: row.owner,
    destination: row.destination,
    statusCode: row.status_code as RedirectStatus,
    state: row.state as StoredLinkState,
    custom: row.custom === 1,
    title: row.title,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    deletedAt: row.deleted_at,
    version: row.version,
  };
}

function fromRowOrNull(row: LinkRow | undefined): Link | null {
  return row === undefined ? null : fromRow(row);
}
