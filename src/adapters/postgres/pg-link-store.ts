import type pg from 'pg';
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
import { guardPg } from './pg-errors.js';
import { recordFromRow, stateCondition, type IdempotencyRow } from '../sql/link-sql.js';
import { inTransaction } from './pg-transaction.js';

interface LinkRow {
  id: string;
  code: string;
  owner: string;
  destination: string;
  status_code: number;
  state: string;
  custom: boolean;
  title: string | null;
  tags: string[];
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  version: number;
}

const LINK_COLUMNS =
  'id, code, owner, destination, status_code, state, custom, title, tags, created_at, updated_at, expires_at, deleted_at, version';

const INSERT_LINK = `INSERT INTO links (${LINK_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
  ON CONFLICT (code) DO NOTHING`;

/**
 * PostgreSQL's text cannot hold U+0000, and a parameter holding it is an error, not a
 * miss; no stored value holds it either, so a lookup for one finds nothing.
 */
const NUL = '\u0000';

/** Links per statement when importing: one round trip each. */
const IMPORT_CHUNK = 1000;

/**
 * Where a scan of codes stands, in the order of (inserting transaction id, link id):
 * every row at or below `safe` has been returned by an earlier pass; this pass has
 * returned the rows up to `after`, reading from the snapshot whose xmin was `passXmin`.
 */
interface ScanPosition {
  readonly safe: ScanKey;
  readonly after: ScanKey;
  readonly passXmin: string | null;
}

interface ScanKey {
  /** A transaction id (xid8, decimal). */
  readonly xid: string;
  readonly id: string;
}

const SCAN_START: ScanKey = { xid: '0', id: '' };

interface ScanPage {
  readonly rows: readonly { readonly xid: string; readonly id: string; readonly code: string }[];
  /** The oldest transaction still running when the page was read: none older can appear. */
  readonly xmin: string;
  /** The next transaction id to be handed out then. */
  readonly xmax: string;
}

export interface PgLinkStoreOptions {
  readonly primary: pg.Pool;
  /**
   * Where redirects read (a replica, or the primary's redirect pool with the short store
   * timeout). A link the replica has not received yet is read again from the primary.
   */
  readonly redirectReads: pg.Pool;
  readonly redirectReadsAreReplica: boolean;
  /** The primary, with the redirect reads' timeout: where a replica's miss is read again. */
  readonly primaryRedirectReads: pg.Pool;
}

export class PgLinkStore implements LinkStore {
  readonly #primary: pg.Pool;
  readonly #redirectReads: pg.Pool;
  readonly #replica: boolean;
  readonly #primaryRedirectReads: pg.Pool;

  constructor(options: PgLinkStoreOptions) {
    this.#primaryRedirectReads = options.primaryRedirectReads;
    this.#primary = options.primary;
    this.#redirectReads = options.redirectReads;
    this.#replica = options.redirectReadsAreReplica;
  }

  async insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult> {
    return guardPg('store the link', async () => {
      if (idempotency === undefined) {
        const result = await this.#primary.query(INSERT_LINK, linkParams(link));
        return result.rowCount === 0 ? { kind: 'code-taken' } : { kind: 'inserted', link };
      }
      const outcome = await inTransaction(this.#primary, (client) =>
        insertWithClaim(client, link, idempotency),
      ).catch((error: unknown) => {
        if (error instanceof CodeTaken) return { kind: 'code-taken' } as const;
        if (error instanceof ClaimTakenMeanwhile) return null;
        throw error;
      });
      if (outcome !== null) return outcome;
      // A concurrent request with the same key committed first (its transaction is done:
      // ON CONFLICT waited for it), and ours rolled back with its link: answer with theirs.
      const record = await this.findIdempotencyRecord(
        idempotency.owner,
        idempotency.key,
        idempotency.notBefore,
      );
      if (record === null) throw new Error('the idempotency record vanished while claiming it');
      return { kind: 'replayed', record };
    });
  }

  async findIdempotencyRecord(
    owner: string,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | null> {
    if (owner.includes(NUL) || key.includes(NUL)) return null;
    return guardPg('read the idempotency record', async () => {
      const { rows } = await this.#primary.query<IdempotencyRow>(
        'SELECT owner, key, request_hash, response, created_at FROM idempotency_records WHERE owner = $1 AND key = $2',
        [owner, key],
      );
      const row = rows[0];
      return row === undefined || row.created_at < notBefore ? null : recordFromRow(row);
    });
  }

  async findLinkById(id: string): Promise<Link | null> {
    if (id.includes(NUL)) return null;
    return guardPg('read the link', async () => {
      const { rows } = await this.#primary.query<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM links WHERE id = $1`,
        [id],
      );
      return rows[0] === undefined ? null : fromRow(rows[0]);
    });
  }

  async findLinkByCode(code: string): Promise<Link | null> {
    if (code.includes(NUL)) return null;
    return guardPg('read the link', async () => {
      const { rows } = await this.#primary.query<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM links WHERE code = $1`,
        [code],
      );
      return rows[0] === undefined ? null : fromRow(rows[0]);
    });
  }

  async findRedirectByCode(
    code: string,
    options?: { readonly primary?: boolean },
  ): Promise<CachedLink | null> {
    if (code.includes(NUL)) return null;
    return guardPg('read the link', async () => {
      if (!this.#replica) return readRedirect(this.#redirectReads, code);
      if (options?.primary === true) return readRedirect(this.#primaryRedirectReads, code);
      // A replica that fails (down, lagging past the timeout) is no reason to fail a
      // redirect while the primary answers: no single database node stops redirects.
      const found = await readRedirect(this.#redirectReads, code).catch(() => null);
      // Read-your-writes across instances: a link created a moment ago on another instance
      // may not have reached the replica; "not found" is only believed from the primary.
      return found ?? readRedirect(this.#primaryRedirectReads, code);
    });
  }

  async listLinks(query: LinkQuery): Promise<readonly Link[]> {
    const filters = [query.owner, query.search, query.tag];
    if (filters.some((value) => value?.includes(NUL) === true)) return [];
    return guardPg('list links', async () => {
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where: string[] = [];
      if (query.owner !== undefined) where.push(`owner = ${param(query.owner)}`);
      if (query.beforeId !== undefined) where.push(`id < ${param(query.beforeId)}`);
      if (query.search !== undefined && query.search !== '') {
        const search = param(query.search.toLowerCase());
        where.push(
          `(strpos(lower(code), ${search}) > 0 OR strpos(lower(destination), ${search}) > 0
            OR strpos(lower(coalesce(title, '')), ${search}) > 0)`,
        );
      }
      if (query.tag !== undefined) {
        where.push(`tags @> jsonb_build_array(${param(query.tag)}::text)`);
      }
      where.push(stateCondition(query.state, () => param(query.nowMs)));
      const sql = `SELECT ${LINK_COLUMNS} FROM links WHERE ${where.join(' AND ')}
        ORDER BY id DESC LIMIT ${param(query.limit)}`;
      const { rows } = await this.#primary.query<LinkRow>(sql, params);
      return rows.map(fromRow);
    });
  }

  async replaceLink(next: Link, expectedVersion: number): Promise<boolean> {
    return guardPg('update the link', async () => {
      const result = await this.#primary.query(
        `UPDATE links SET destination = $2, status_code = $3, state = $4, title = $5, tags = $6,
           updated_at = $7, expires_at = $8, deleted_at = $9, version = $10
         WHERE id = $1 AND version = $11`,
        [
          next.id,
          next.destination,
          next.statusCode,
          next.state,
          next.title,
          JSON.stringify(next.tags),
          next.updatedAt,
          next.expiresAt,
          next.deletedAt,
          next.version,
          expectedVersion,
        ],
      );
      return result.rowCount === 1;
    });
  }

  async importLinks(links: readonly Link[]): Promise<number> {
    if (links.length === 0) return 0;
    return guardPg('import links', async () => {
      let inserted = 0;
      for (let start = 0; start < links.length; start += IMPORT_CHUNK) {
        const chunk = links.slice(start, start + IMPORT_CHUNK);
        const result = await this.#primary.query(
          `INSERT INTO links (${LINK_COLUMNS})
           SELECT id, code, owner, destination, status_code, state, custom, title, tags,
             created_at, updated_at, expires_at, deleted_at, version
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, code text, owner text,
             destination text, status_code smallint, state text, custom boolean, title text,
             tags jsonb, created_at bigint, updated_at bigint, expires_at bigint,
             deleted_at bigint, version integer)
           ON CONFLICT (code) DO NOTHING`,
          [JSON.stringify(chunk.map(recordOf))],
        );
        inserted += result.rowCount ?? 0;
      }
      return inserted;
    });
  }

  /**
   * Rows come in the order of the transaction that inserted them (then id). Transactions
   * commit out of that order, so a row may still appear behind a position already read;
   * but none older than the snapshot's xmin (the oldest transaction still running) can.
   * Each pass therefore starts again from `safe`, the point below which nothing new can
   * appear, and a code inserted near the end of a pass may come twice: the port allows it.
   */
  async scanCodes(cursor: string | null, limit: number): Promise<CodeScan> {
    return guardPg('scan codes', async () => {
      let position: ScanPosition =
        cursor === null
          ? { safe: SCAN_START, after: SCAN_START, passXmin: null }
          : parseScanCursor(cursor);
      let page = await this.#scanPage(position.after, limit);
      // Transaction ids went back (a failover to a replica that had not received the last
      // transactions, a restore into another cluster): the cursor points past ids this
      // server will hand out again. Start over; codes already read may come again.
      if (compareXid(position.safe.xid, page.xmax) > 0) {
        position = { safe: SCAN_START, after: SCAN_START, passXmin: null };
        page = await this.#scanPage(SCAN_START, limit);
      }
      const { rows, xmin } = page;
      const passXmin =
        position.passXmin === null || compareXid(xmin, position.passXmin) < 0
          ? xmin
          : position.passXmin;
      const last = rows.at(-1);
      const codes = rows.map((row) => row.code);
      if (last !== undefined && rows.length === limit) {
        return {
          codes,
          cursor: formatScanCursor({
            safe: position.safe,
            after: { xid: last.xid, id: last.id },
            passXmin,
          }),
        };
      }
      // The pass is over: everything of a transaction older than the pass's first xmin has
      // been read; the next pass starts there.
      const reached = maxKey(position.safe, { xid: passXmin, id: '' });
      return { codes, cursor: formatScanCursor({ safe: reached, after: reached, passXmin: null }) };
    });
  }

  /**
   * Up to `limit` rows after `after`, with the xmin and xmax of the very snapshot that read
   * them (one statement: a second query's snapshot could be newer than the rows'). The
   * single-row subquery keeps the snapshot's bounds when no row follows `after`.
   */
  async #scanPage(after: ScanKey, limit: number): Promise<ScanPage> {
    const { rows } = await this.#primary.query<{
      xmin: string;
      xmax: string;
      xid: string | null;
      id: string | null;
      code: string | null;
    }>(
      `SELECT s.xmin, s.xmax, l.created_xid::text AS xid, l.id, l.code
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
                    pg_snapshot_xmax(pg_current_snapshot())::text AS xmax) AS s
       LEFT JOIN LATERAL (
         SELECT created_xid, id, code FROM links WHERE (created_xid, id) > ($1::xid8, $2)
         ORDER BY created_xid, id LIMIT $3) AS l ON true
       ORDER BY l.created_xid, l.id`,
      [after.xid, after.id, limit],
    );
    const first = rows[0];
    if (first === undefined) throw new Error('the snapshot bounds are missing');
    const found: { xid: string; id: string; code: string }[] = [];
    for (const row of rows) {
      if (row.xid !== null && row.id !== null && row.code !== null) {
        found.push({ xid: row.xid, id: row.id, code: row.code });
      }
    }
    return { rows: found, xmin: first.xmin, xmax: first.xmax };
  }

  async markExpired(nowMs: number, limit: number): Promise<readonly Link[]> {
    return guardPg('mark expired links', async () => {
      // A CTE holding FOR UPDATE runs once (an IN subquery may be rescanned, and its LIMIT
      // then caps each scan, not the update). The outer WHERE repeats the conditions: a row
      // changed while we waited for its lock is checked again as it now is.
      const { rows } = await this.#primary.query<LinkRow>(
        `WITH due AS (
           SELECT id FROM links
           WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= $1
           ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE links AS l SET state = 'expired', updated_at = $1, version = l.version + 1
         FROM due WHERE l.id = due.id AND l.state = 'active' AND l.expires_at <= $1
         RETURNING ${LINK_COLUMNS.split(', ')
           .map((c) => `l.${c}`)
           .join(', ')}`,
        [nowMs, limit],
      );
      return rows.map(fromRow);
    });
  }

  async reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]> {
    return guardPg('find reclaimable links', async () => {
      const { rows } = await this.#primary.query<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM links
         WHERE NOT custom AND state IN ('expired', 'deleted')
           AND coalesce(deleted_at, expires_at) <= $1
         ORDER BY coalesce(deleted_at, expires_at) LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map(fromRow);
    });
  }

  async deleteReclaimed(
    links: readonly { readonly id: string; readonly version: number }[],
  ): Promise<number> {
    if (links.length === 0) return 0;
    return guardPg('delete reclaimed links', async () => {
      const result = await this.#primary.query(
        `DELETE FROM links AS l USING unnest($1::text[], $2::integer[]) AS r(id, version)
         WHERE l.id = r.id AND l.version = r.version
           AND NOT l.custom AND l.state IN ('expired', 'deleted')`,
        [links.map((link) => link.id), links.map((link) => link.version)],
      );
      return result.rowCount ?? 0;
    });
  }

  async purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('purge idempotency records', async () => {
      const result = await this.#primary.query(
        `DELETE FROM idempotency_records WHERE (owner, key) IN (
           SELECT owner, key FROM idempotency_records WHERE created_at < $1
           ORDER BY created_at LIMIT $2)`,
        [olderThanMs, limit],
      );
      return result.rowCount ?? 0;
    });
  }
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
async function insertWithClaim(
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

async function readRedirect(pool: pg.Pool, code: string): Promise<CachedLink | null> {
  const { rows } = await pool.query<
    [string, string, number, string, number | null, number, string]
  >({
    text: 'SELECT id, code, version, state, expires_at, status_code, destination FROM links WHERE code = $1',
    values: [code],
    rowMode: 'array',
  });
  const row = rows[0];
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
}

function linkParams(link: Link): unknown[] {
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
  ];
}

/** A link as jsonb_to_recordset reads it (snake_case columns). */
function recordOf(link: Link): Record<string, unknown> {
  return {
    id: link.id,
    code: link.code,
    owner: link.owner,
    destination: link.destination,
    status_code: link.statusCode,
    state: link.state,
    custom: link.custom,
    title: link.title,
    tags: link.tags,
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
    custom: row.custom,
    title: row.title,
    tags: row.tags,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    deletedAt: row.deleted_at,
    version: row.version,
  };
}

/** Transaction ids are decimal strings of up to 20 digits: compare by length, then text. */
function compareXid(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function maxKey(a: ScanKey, b: ScanKey): ScanKey {
  const byXid = compareXid(a.xid, b.xid);
  if (byXid !== 0) return byXid > 0 ? a : b;
  return a.id >= b.id ? a : b;
}

/** `pg:<safeXid>:<safeId>:<afterXid>:<afterId>:<passXmin or ->`; ids never contain ':'. */
function formatScanCursor(position: ScanPosition): string {
  const { safe, after, passXmin } = position;
  return `pg:${safe.xid}:${safe.id}:${after.xid}:${after.id}:${passXmin ?? '-'}`;
}

function parseScanCursor(cursor: string): ScanPosition {
  const parts = cursor.split(':');
  const digits = /^\d{1,20}$/;
  const [tag, safeXid, safeId, afterXid, afterId, passXmin] = parts;
  if (
    parts.length !== 6 ||
    tag !== 'pg' ||
    safeXid === undefined ||
    !digits.test(safeXid) ||
    afterXid === undefined ||
    !digits.test(afterXid) ||
    passXmin === undefined ||
    (passXmin !== '-' && !digits.test(passXmin))
  ) {
    throw new RangeError(`not a scan cursor: ${cursor}`);
  }
  return {
    safe: { xid: safeXid, id: safeId ?? '' },
    after: { xid: afterXid, id: afterId ?? '' },
    passXmin: passXmin === '-' ? null : passXmin,
  };
}
