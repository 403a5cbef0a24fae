import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
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
import { LINK_COLUMNS, listOrderSql, recordFromRow, type IdempotencyRow } from '../sql/link-sql.js';
import { previewColumnOf, smartColumnOf } from '../sql/smart-column.js';
import { queryRerunOnConflict } from './mariadb-transaction.js';
import { guardMariaDb } from './mariadb-errors.js';
import { IDEMPOTENCY_COLUMNS, insertWithClaim } from './mariadb-insert-with-claim.js';
import { filterConditions, namedValues } from './mariadb-link-filter.js';
import { importLinks } from './mariadb-link-import.js';
import {
  fromRow,
  INSERT_LINK,
  isCodeTaken,
  linkValues,
  type LinkRow,
} from './mariadb-link-rows.js';

interface StoredIdempotencyRow extends IdempotencyRow, RowDataPacket {}

interface CountRow extends RowDataPacket {
  n: number;
}

/** Sums arrive as DECIMAL, which the pool reads as numbers. */
interface SumRow extends RowDataPacket {
  clicks: number;
  bot_clicks: number;
}

/**
 * Links on MariaDB (issue 25, ADR 0140), every read and write on the primary pool: on a
 * Galera cluster, the region's own node. A create that loses a certification conflict is
 * run again (rerunOnConflict; a transaction by inTransaction), and then finds the code taken.
 */
export class MariaDbLinkRepository implements LinkRepository {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult> {
    return guardMariaDb('store the link', async () => {
      if (idempotency !== undefined) return insertWithClaim(this.#pool, link, idempotency);
      try {
        await queryRerunOnConflict(this.#pool, INSERT_LINK, linkValues(link));
        return { kind: 'inserted', link };
      } catch (error) {
        if (isCodeTaken(error)) return { kind: 'code-taken' };
        throw error;
      }
    });
  }

  async findIdempotencyRecord(
    owner: string,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | null> {
    return guardMariaDb('read the idempotency record', async () => {
      const [rows] = await this.#pool.query<StoredIdempotencyRow[]>(
        `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_records WHERE owner = ? AND \`key\` = ?`,
        [owner, key],
      );
      const row = rows[0];
      // utf8mb4_bin pads with spaces when it compares: "k " finds "k". Only the same key is it.
      if (row === undefined || row.owner !== owner || row.key !== key) return null;
      return row.created_at < notBefore ? null : recordFromRow(row);
    });
  }

  async findLinkById(id: string): Promise<Link | null> {
    return guardMariaDb('read the link', async () => {
      const [rows] = await this.#pool.query<LinkRow[]>(
        `SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`,
        [id],
      );
      const row = rows[0];
      return row === undefined || row.id !== id ? null : fromRow(row);
    });
  }

  async findLinkByCode(domain: string, code: string): Promise<Link | null> {
    return guardMariaDb('read the link', async () => {
      const [rows] = await this.#pool.query<LinkRow[]>(
        `SELECT ${LINK_COLUMNS} FROM links WHERE domain = ? AND code = ?`,
        [domain, code],
      );
      const row = rows[0];
      // As above: the collation's trailing-space padding must not make "abc " find "abc".
      return row === undefined || row.code !== code || row.domain !== domain ? null : fromRow(row);
    });
  }

  async listLinks(query: LinkQuery): Promise<readonly Link[]> {
    const { values, param } = namedValues();
    const where = filterConditions(query, param);
    if (where === null) return [];
    return guardMariaDb('list links', async () => {
      // click_totals is in the same database: the click store keeps it beside the links.
      const order = listOrderSql(query, 'click_totals', param);
      if (order.after !== null) where.push(order.after);
      if (query.beforeId !== undefined) where.push(`links.id < ${param(query.beforeId)}`);
      let paging = `LIMIT ${param(query.limit)}`;
      if (query.offset !== undefined && query.offset > 0) {
        paging += ` OFFSET ${param(query.offset)}`;
      }
      const sql = `SELECT ${LINK_COLUMNS} FROM links ${order.join}
        WHERE ${where.join(' AND ')} ORDER BY ${order.orderBy} ${paging}`;
      const [rows] = await this.#pool.query<LinkRow[]>({ sql, namedPlaceholders: true }, values);
      return rows.map(fromRow);
    });
  }

  async countLinks(query: LinkFilterQuery): Promise<number> {
    const { values, param } = namedValues();
    const where = filterConditions(query, param);
    if (where === null) return 0;
    return guardMariaDb('count links', async () => {
      const sql = `SELECT COUNT(*) AS n FROM links WHERE ${where.join(' AND ')}`;
      const [rows] = await this.#pool.query<CountRow[]>({ sql, namedPlaceholders: true }, values);
      return rows[0]?.n ?? 0;
    });
  }

  async sumClicks(query: LinkFilterQuery): Promise<ClickCounts> {
    const { values, param } = namedValues();
    const where = filterConditions(query, param);
    if (where === null) return NO_CLICKS;
    return guardMariaDb('sum clicks', async () => {
      const sql = `SELECT COALESCE(SUM(totals.clicks), 0) AS clicks,
          COALESCE(SUM(totals.bot_clicks), 0) AS bot_clicks
        FROM links JOIN click_totals AS totals ON totals.link_id = links.id
        WHERE ${where.join(' AND ')}`;
      const [rows] = await this.#pool.query<SumRow[]>({ sql, namedPlaceholders: true }, values);
      return { clicks: rows[0]?.clicks ?? 0, botClicks: rows[0]?.bot_clicks ?? 0 };
    });
  }

  /**
   * A compare-and-set on `version`, which also makes the triggers of migration 0005 write
   * the link's event. The pool counts matched rows (mysql2's FOUND_ROWS), so a replace
   * that changes no value still answers true, as on PostgreSQL.
   */
  async replaceLink(next: Link, expectedVersion: number): Promise<boolean> {
    return guardMariaDb('update the link', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(
        `UPDATE links SET destination = ?, status_code = ?, state = ?, title = ?, tags = ?,
           updated_at = ?, expires_at = ?, deleted_at = ?, version = ?, smart = ?, preview = ?,
           crawlable = ?
         WHERE id = ? AND version = ?`,
        [
          next.destination,
          next.statusCode,
          next.state,
          next.title,
          JSON.stringify(next.tags),
          next.updatedAt,
          next.expiresAt,
          next.deletedAt,
          next.version,
          smartColumnOf(next.smart),
          previewColumnOf(next.preview),
          next.crawlable,
          next.id,
          expectedVersion,
        ],
      );
      return result.affectedRows === 1;
    });
  }

  async importLinks(links: readonly Link[]): Promise<number> {
    if (links.length === 0) return 0;
    return guardMariaDb('import links', () => importLinks(this.#pool, links));
  }
}
