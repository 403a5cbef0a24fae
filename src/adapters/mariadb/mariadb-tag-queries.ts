import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { TagCount, TagQueries, TagQuery } from '../../ports/tag-queries.js';
import { guardMariaDb } from './mariadb-errors.js';
import { namedValues } from './mariadb-link-filter.js';

/** COUNT is a BIGINT and SUM a DECIMAL: the pool reads both as numbers. */
interface TagRow extends RowDataPacket {
  name: string;
  links: number;
  clicks: number;
}

/**
 * Each tag of a link as a row. The column's collation is utf8mb4_nopad_bin (ADR 0140):
 * code point order, as SQLite's BINARY and PostgreSQL's "C", without the trailing-space
 * padding of the tables' utf8mb4_bin, so grouping, order and `>` compare names exactly.
 * Longer than any tag (MAX_TAG_LENGTH), so no stored one is cut.
 */
const TAGS_OF_LINK = `JSON_TABLE(links.tags, '$[*]'
  COLUMNS (name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin PATH '$')) AS tag`;

/** Tags counted from links.tags (ADR 0119), their clicks from click_totals beside them. */
export class MariaDbTagQueries implements TagQueries {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async listTags(query: TagQuery): Promise<readonly TagCount[]> {
    if (query.domains?.length === 0) return [];
    return guardMariaDb('list tags', async () => {
      const { values, param } = namedValues();
      const where = ["links.state <> 'deleted'"];
      if (query.owner !== undefined) where.push(`links.owner = ${param(query.owner)}`);
      if (query.domains !== undefined) where.push(`links.domain IN (${param(query.domains)})`);
      if (query.name !== undefined) where.push(`tag.name = ${param(query.name)}`);
      if (query.afterName !== undefined) where.push(`tag.name > ${param(query.afterName)}`);
      if (query.search !== undefined && query.search !== '') {
        // LOCATE, not LIKE: % and _ are literal.
        where.push(`LOCATE(${param(query.search.toLowerCase())}, LOWER(tag.name)) > 0`);
      }
      const sql = `SELECT tag.name AS name, COUNT(*) AS links,
          COALESCE(SUM(totals.clicks), 0) AS clicks
        FROM links CROSS JOIN ${TAGS_OF_LINK}
        LEFT JOIN click_totals AS totals ON totals.link_id = links.id
        WHERE ${where.join(' AND ')}
        GROUP BY tag.name ORDER BY tag.name LIMIT ${param(query.limit)}`;
      const [rows] = await this.#pool.query<TagRow[]>({ sql, namedPlaceholders: true }, values);
      return rows.map((row) => ({ name: row.name, links: row.links, clicks: row.clicks }));
    });
  }
}
