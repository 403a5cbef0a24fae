import Database from 'better-sqlite3';
import type { ClickCounts } from '../../domain/click-fold.js';
import type { Link } from '../../domain/link.js';
import type {
  IdempotencyClaim,
  IdempotencyRecord,
  InsertLinkResult,
  LinkFilterQuery,
  LinkQuery,
  LinkRepository,
} from '../../ports/link-repository.js';
import { LINK_COLUMNS, listOrderSql, recordFromRow, stateCondition } from '../sql/link-sql.js';
import { guardSqlite } from './sqlite-errors.js';
import { fromRow, fromRowOrNull, toRow, type LinkRow } from './sqlite-link-rows.js';
import { SqliteLinkInserts } from './sqlite-link-inserts.js';
import type { LinkInsertThread } from './link-insert-thread.js';

export class SqliteLinkRepository implements LinkRepository {
  readonly #db: Database.Database;
  readonly #byId: Database.Statement<[string], LinkRow>;
  readonly #byCode: Database.Statement<[string, string], LinkRow>;
  readonly #replace: Database.Statement;
  readonly #inserts: SqliteLinkInserts;
  /** Where creates are written when not here: the link insert thread (ADR 0144). */
  #insertThread: LinkInsertThread | null = null;
  /** List and count statements by connection and SQL (`#prepared`). */
  readonly #statements = new Map<string, Database.Statement<Record<string, unknown>>>();
  /** clicks.db's path: a list sorted by clicks reads its totals there (ADR 0097). */
  readonly #clicksFile: string | null;
  /** hop.db read-only with clicks.db attached, opened by the first list sorted by clicks. */
  #withClicks: Database.Database | null = null;

  constructor(db: Database.Database, clicksFile: string | null = null) {
    this.#db = db;
    this.#clicksFile = clicksFile;
    registerFold(db);
    this.#inserts = new SqliteLinkInserts(db);
    this.#byId = db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`);
    this.#byCode = db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE domain = ? AND code = ?`);
    this.#replace = db.prepare(
      `UPDATE links SET destination = @destination, status_code = @status_code, state = @state,
        title = @title, tags = @tags, updated_at = @updated_at, expires_at = @expires_at,
        deleted_at = @deleted_at, version = @version, smart = @smart, preview = @preview,
        crawlable = @crawlable
       WHERE id = @id AND version = @expected_version`,
    );
  }

  /**
   * Writes this connection's creates on `thread` from now on (`hop serve`: ADR 0144), or
   * here again with null.
   */
  insertOn(thread: LinkInsertThread | null): void {
    this.#insertThread = thread;
  }

  async insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult> {
    const row = guardSqlite('store the link', () => toRow(link));
    const claim =
      idempotency === undefined
        ? undefined
        : {
            ...idempotency,
            linkId: link.id,
            response: JSON.stringify(link),
            createdAt: link.createdAt,
          };
    const result =
      (await this.#insertThread?.insert(row, claim)) ??
      guardSqlite('store the link', () => this.#inserts.insert(row, claim));
    if (result.kind === 'replayed')
      return { kind: 'replayed', record: recordFromRow(result.record) };
    return result.kind === 'inserted' ? { kind: 'inserted', link } : result;
  }

  async findIdempotencyRecord(
    owner: string,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | null> {
    return guardSqlite('read the idempotency record', () => {
      const row = this.#inserts.findClaim(owner, key);
      return row === undefined || row.created_at < notBefore ? null : recordFromRow(row);
    });
  }

  async findLinkById(id: string): Promise<Link | null> {
    return guardSqlite('read the link', () => fromRowOrNull(this.#byId.get(id)));
  }

  async findLinkByCode(domain: string, code: string): Promise<Link | null> {
    return guardSqlite('read the link', () => fromRowOrNull(this.#byCode.get(domain, code)));
  }

  async listLinks(query: LinkQuery): Promise<readonly Link[]> {
    return guardSqlite('list links', () => {
      const params: Record<string, unknown> = { limit: query.limit };
      const order = listOrderSql(query, 'clicks.click_totals', (value) => {
        const name = `sort_${Object.keys(params).length}`;
        params[name] = value;
        return `@${name}`;
      });
      const where = filterConditions(query, params);
      if (order.after !== null) where.push(order.after);
      if (query.beforeId !== undefined) {
        where.push('id < @before_id');
        params['before_id'] = query.beforeId;
      }
      let paging = 'LIMIT @limit';
      if (query.offset !== undefined && query.offset > 0) {
        paging += ' OFFSET @offset';
        params['offset'] = query.offset;
      }
      const sql = `SELECT ${LINK_COLUMNS} FROM links ${order.join} WHERE ${where.join(' AND ')} ORDER BY ${order.orderBy} ${paging}`;
      const db = order.join === '' ? this.#db : this.connectionWithClicks();
      return this.#prepared<LinkRow>(db, sql).all(params).map(fromRow);
    });
  }

  async countLinks(query: LinkFilterQuery): Promise<number> {
    return guardSqlite('count links', () => {
      const params: Record<string, unknown> = {};
      const where = filterConditions(query, params);
      const sql = `SELECT count(*) AS n FROM links WHERE ${where.join(' AND ')}`;
      return this.#prepared<{ n: number }>(this.#db, sql).get(params)?.n ?? 0;
    });
  }

  async sumClicks(query: LinkFilterQuery): Promise<ClickCounts> {
    return guardSqlite('sum clicks', () => {
      const params: Record<string, unknown> = {};
      const where = filterConditions(query, params);
      // The links in hop.db, their totals in clicks.db: joined on the read-only connection
      // with both attached, as a list sorted by clicks is (ADR 0097).
      const sql = `SELECT coalesce(sum(totals.clicks), 0) AS clicks,
          coalesce(sum(totals.bot_clicks), 0) AS bot_clicks
        FROM links JOIN clicks.click_totals AS totals ON totals.link_id = links.id
        WHERE ${where.join(' AND ')}`;
      const row = this.#prepared<{ clicks: number; bot_clicks: number }>(
        this.connectionWithClicks(),
        sql,
      ).get(params);
      return { clicks: row?.clicks ?? 0, botClicks: row?.bot_clicks ?? 0 };
    });
  }

  /**
   * A statement by its SQL, prepared once on `db`: the filters combine into a handful of
   * shapes. Parameters the SQL does not name are dropped (better-sqlite3 refuses extras).
   */
  #prepared<Row>(
    db: Database.Database,
    sql: string,
  ): {
    all(params: Record<string, unknown>): Row[];
    get(params: Record<string, unknown>): Row | undefined;
  } {
    const key = `${db === this.#db ? 'main' : 'clicks'}\n${sql}`;
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      statement = db.prepare<Record<string, unknown>>(sql);
      this.#statements.set(key, statement);
    }
    const bound = statement;
    const used = (params: Record<string, unknown>) => {
      if (!sql.includes('@now')) delete params['now'];
      return params;
    };
    return {
      all: (params) => bound.all(used(params)) as Row[],
      get: (params) => bound.get(used(params)) as Row | undefined,
    };
  }

  /**
   * The clicks live in clicks.db, a file of its own so that folds never hold hop.db's write
   * lock. Attaching it to the main connection would undo that: a write transaction there
   * (BEGIN IMMEDIATE) takes every attached file's write lock. A second, read-only
   * connection with both files attached joins them and never writes. The tag counts
   * (SqliteTagQueries) read there too.
   */
  connectionWithClicks(): Database.Database {
    if (this.#withClicks !== null) return this.#withClicks;
    if (this.#clicksFile === null) {
      throw new Error('this SQLite link repository was opened without its clicks.db');
    }
    const db = new Database(this.#db.name, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    registerFold(db);
    db.prepare('ATTACH DATABASE ? AS clicks').run(this.#clicksFile);
    this.#withClicks = db;
    return db;
  }

  /** Closes the read-only connection a list by clicks opened, if any. */
  close(): void {
    if (this.#withClicks?.open === true) this.#withClicks.close();
  }

  async importLinks(links: readonly Link[]): Promise<number> {
    return guardSqlite('import links', () => this.#inserts.importRows(links.map(toRow)));
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
        smart: row.smart,
        preview: row.preview,
        crawlable: row.crawlable,
        expected_version: expectedVersion,
      });
      return result.changes === 1;
    });
  }
}

/**
 * The WHERE conditions of `query`'s filters, shared by the list, the count and the sum;
 * binds their values into `params`.
 */
function filterConditions(query: LinkFilterQuery, params: Record<string, unknown>): string[] {
  const where: string[] = [];
  if (query.owner !== undefined) {
    where.push('owner = @owner');
    params['owner'] = query.owner;
  }
  if (query.domains !== undefined) {
    const names = query.domains.map((domain, index) => {
      params[`domain_${index}`] = domain;
      return `@domain_${index}`;
    });
    where.push(names.length === 0 ? '0' : `domain IN (${names.join(', ')})`);
  }
  if (query.search !== undefined && query.search !== '') {
    where.push(
      `(instr(hop_fold(code), @search) > 0 OR instr(hop_fold(destination), @search) > 0
        OR instr(hop_fold(coalesce(title, '')), @search) > 0)`,
    );
    params['search'] = query.search.toLowerCase();
  }
  where.push(...tagConditions(query, params));
  params['now'] = query.nowMs;
  where.push(stateCondition(query.state, () => '@now'));
  return where;
}

/**
 * The tag filters of listLinks (ADR 0119): each list is bound as one JSON array, so the
 * statement's text does not depend on how many tags are asked for.
 */
function tagConditions(query: LinkFilterQuery, params: Record<string, unknown>): string[] {
  const conditions: string[] = [];
  // A join, not `tag.value IN (SELECT …)`: with the IN form SQLite (3.51) counts rows the
  // EXISTS turns away toward an OFFSET, so a numbered page started early.
  const has = (list: string) =>
    `EXISTS (SELECT 1 FROM json_each(links.tags) AS tag
      JOIN json_each(${list}) AS wanted ON wanted.value = tag.value)`;
  if (query.tags !== undefined && query.tags.length > 0) {
    params['tags'] = JSON.stringify(query.tags);
    conditions.push(
      query.tagsMode === 'all'
        ? `NOT EXISTS (SELECT 1 FROM json_each(@tags) AS wanted
            WHERE wanted.value NOT IN (SELECT value FROM json_each(links.tags)))`
        : has('@tags'),
    );
  }
  if (query.excludeTags !== undefined && query.excludeTags.length > 0) {
    params['exclude_tags'] = JSON.stringify(query.excludeTags);
    conditions.push(`NOT ${has('@exclude_tags')}`);
  }
  return conditions;
}

/**
 * SQLite's lower() folds only A-Z; search must fold "Über" like PostgreSQL does, so the
 * adapter uses JavaScript's Unicode case rules on both sides of the comparison.
 */
function registerFold(db: Database.Database): void {
  db.function('hop_fold', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
}
