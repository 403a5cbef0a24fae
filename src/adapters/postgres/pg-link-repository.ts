import type pg from 'pg';
import { NO_CLICKS, type ClickCounts } from '../../domain/click-fold.js';
import type { Link } from '../../domain/link.js';
import type {
  IdempotencyClaim,
  IdempotencyRecord,
  InsertLinkResult,
  LinkFilterQuery,
  LinkQuery,
  LinkRepository,
} from '../../ports/link-repository.js';
import {
  LINK_COLUMNS,
  listOrderSql,
  recordFromRow,
  stateCondition,
  type IdempotencyRow,
} from '../sql/link-sql.js';
import { guardPg } from './pg-errors.js';
import { fromRow, NUL, type LinkRow } from './pg-link-rows.js';
import { previewColumnOf, smartColumnOf } from '../sql/smart-column.js';
import { INSERT_LINK, insertWithClaim, linkParams } from './pg-insert-with-claim.js';

/** Links per statement when importing: one round trip each. */
const IMPORT_CHUNK = 1000;

/** Every read and write here goes to the primary. */
export class PgLinkRepository implements LinkRepository {
  readonly #primary: pg.Pool;

  constructor(primary: pg.Pool) {
    this.#primary = primary;
  }

  async insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult> {
    return guardPg('store the link', async () => {
      if (idempotency === undefined) {
        const result = await this.#primary.query(INSERT_LINK, linkParams(link));
        return result.rowCount === 0 ? { kind: 'code-taken' } : { kind: 'inserted', link };
      }
      const outcome = await insertWithClaim(this.#primary, link, idempotency);
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

  async findLinkByCode(domain: string, code: string): Promise<Link | null> {
    if (code.includes(NUL) || domain.includes(NUL)) return null;
    return guardPg('read the link', async () => {
      const { rows } = await this.#primary.query<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM links WHERE domain = $1 AND code = $2`,
        [domain, code],
      );
      return rows[0] === undefined ? null : fromRow(rows[0]);
    });
  }

  async listLinks(query: LinkQuery): Promise<readonly Link[]> {
    const filter = filterOf(query);
    if (filter === null) return [];
    return guardPg('list links', async () => {
      const params: unknown[] = [];
      const param = bindInto(params);
      // click_totals is in the same database: the click store keeps it beside the links.
      const order = listOrderSql(query, 'click_totals', param);
      const where = filterConditions(filter, param);
      if (order.after !== null) where.push(order.after);
      if (query.beforeId !== undefined) where.push(`id < ${param(query.beforeId)}`);
      let paging = `LIMIT ${param(query.limit)}`;
      if (query.offset !== undefined && query.offset > 0)
        paging += ` OFFSET ${param(query.offset)}`;
      const sql = `SELECT ${LINK_COLUMNS} FROM links ${order.join} WHERE ${where.join(' AND ')}
        ORDER BY ${order.orderBy} ${paging}`;
      const { rows } = await this.#primary.query<LinkRow>(sql, params);
      return rows.map(fromRow);
    });
  }

  async countLinks(query: LinkFilterQuery): Promise<number> {
    const filter = filterOf(query);
    if (filter === null) return 0;
    return guardPg('count links', async () => {
      const params: unknown[] = [];
      const where = filterConditions(filter, bindInto(params));
      const { rows } = await this.#primary.query<{ n: string }>(
        `SELECT count(*) AS n FROM links WHERE ${where.join(' AND ')}`,
        params,
      );
      return Number(rows[0]?.n ?? 0);
    });
  }

  async sumClicks(query: LinkFilterQuery): Promise<ClickCounts> {
    const filter = filterOf(query);
    if (filter === null) return NO_CLICKS;
    return guardPg('sum clicks', async () => {
      const params: unknown[] = [];
      const where = filterConditions(filter, bindInto(params));
      const { rows } = await this.#primary.query<{ clicks: string; bot_clicks: string }>(
        `SELECT coalesce(sum(totals.clicks), 0) AS clicks,
           coalesce(sum(totals.bot_clicks), 0) AS bot_clicks
         FROM links JOIN click_totals AS totals ON totals.link_id = links.id
         WHERE ${where.join(' AND ')}`,
        params,
      );
      return { clicks: Number(rows[0]?.clicks ?? 0), botClicks: Number(rows[0]?.bot_clicks ?? 0) };
    });
  }

  async replaceLink(next: Link, expectedVersion: number): Promise<boolean> {
    return guardPg('update the link', async () => {
      const result = await this.#primary.query(
        `UPDATE links SET destination = $2, status_code = $3, state = $4, title = $5, tags = $6,
           updated_at = $7, expires_at = $8, deleted_at = $9, version = $10, smart = $12,
           preview = $13, crawlable = $14
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
          smartColumnOf(next.smart),
          previewColumnOf(next.preview),
          next.crawlable,
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
             created_at, updated_at, expires_at, deleted_at, version, smart, domain, preview,
             crawlable
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, code text, owner text,
             destination text, status_code smallint, state text, custom boolean, title text,
             tags jsonb, created_at bigint, updated_at bigint, expires_at bigint,
             deleted_at bigint, version integer, smart text, domain text, preview text,
             crawlable boolean)
           ON CONFLICT (domain, code) DO NOTHING`,
          [JSON.stringify(chunk.map(recordOf))],
        );
        inserted += result.rowCount ?? 0;
      }
      return inserted;
    });
  }
}

/** A query's filters as PostgreSQL can take them: no NUL, which no stored text holds. */
interface PgFilter {
  readonly query: LinkFilterQuery;
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
}

/** `query`'s filters, or null when a NUL in one means no link can match. */
function filterOf(query: LinkFilterQuery): PgFilter | null {
  const filters = [query.owner, query.search];
  if (filters.some((value) => value?.includes(NUL) === true)) return null;
  // No stored tag holds a NUL (the tag rules): such a tag matches no link.
  const wanted = query.tags ?? [];
  const tags = wanted.filter((tag) => !tag.includes(NUL));
  if (tags.length < wanted.length && (query.tagsMode === 'all' || tags.length === 0)) return null;
  const excludeTags = query.excludeTags?.filter((tag) => !tag.includes(NUL)) ?? [];
  return { query, tags, excludeTags };
}

/** Binds a value into `params`, returning its placeholder (`$3`). */
function bindInto(params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** The WHERE conditions of a filter, shared by the list, the count and the sum. */
function filterConditions(filter: PgFilter, param: (value: unknown) => string): string[] {
  const { query, tags, excludeTags } = filter;
  const where: string[] = [];
  if (query.owner !== undefined) where.push(`owner = ${param(query.owner)}`);
  if (query.domains !== undefined) where.push(`domain = ANY(${param(query.domains)}::text[])`);
  if (query.search !== undefined && query.search !== '') {
    const search = param(query.search.toLowerCase());
    where.push(
      `(strpos(lower(code), ${search}) > 0 OR strpos(lower(destination), ${search}) > 0
        OR strpos(lower(coalesce(title, '')), ${search}) > 0)`,
    );
  }
  // jsonb's ?| and ?& test array elements, and the GIN index links_tags serves both.
  if (tags.length > 0) {
    where.push(`tags ${query.tagsMode === 'all' ? '?&' : '?|'} ${param(tags)}::text[]`);
  }
  if (excludeTags.length > 0) where.push(`NOT (tags ?| ${param(excludeTags)}::text[])`);
  where.push(stateCondition(query.state, () => param(query.nowMs)));
  return where;
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
    smart: smartColumnOf(link.smart),
    domain: link.domain,
    preview: previewColumnOf(link.preview),
    crawlable: link.crawlable,
  };
}
