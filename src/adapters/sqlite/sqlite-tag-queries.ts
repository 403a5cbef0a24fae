import type Database from 'better-sqlite3';
import type { TagCount, TagQueries, TagQuery } from '../../ports/tag-queries.js';
import { guardSqlite } from './sqlite-errors.js';

interface TagRow {
  name: string;
  links: number;
  clicks: number;
}

/**
 * Tags counted from links.tags (ADR 0119), their clicks from clicks.db's totals: read on
 * the link repository's read-only connection with clicks.db attached (ADR 0097), so no
 * count ever takes hop.db's or clicks.db's write lock.
 */
export class SqliteTagQueries implements TagQueries {
  readonly #connection: () => Database.Database;
  /** Statements by their SQL: the filters combine into a handful of shapes. */
  readonly #statements = new Map<string, Database.Statement<Record<string, unknown>, TagRow>>();

  constructor(connectionWithClicks: () => Database.Database) {
    this.#connection = connectionWithClicks;
  }

  async listTags(query: TagQuery): Promise<readonly TagCount[]> {
    return guardSqlite('list tags', () => {
      const where = ["links.state <> 'deleted'"];
      const params: Record<string, unknown> = { limit: query.limit };
      if (query.owner !== undefined) {
        where.push('links.owner = @owner');
        params['owner'] = query.owner;
      }
      if (query.domains !== undefined) {
        // One JSON array: the statement's text does not grow with the key's domains.
        where.push('links.domain IN (SELECT value FROM json_each(@domains))');
        params['domains'] = JSON.stringify(query.domains);
      }
      if (query.name !== undefined) {
        where.push('tag.value = @name');
        params['name'] = query.name;
      }
      if (query.afterName !== undefined) {
        where.push('tag.value > @after_name');
        params['after_name'] = query.afterName;
      }
      if (query.search !== undefined && query.search !== '') {
        where.push('instr(hop_fold(tag.value), @search) > 0');
        params['search'] = query.search.toLowerCase();
      }
      // BINARY collation: UTF-8 bytes, which sort as code points, as PostgreSQL's "C".
      const sql = `SELECT tag.value AS name, count(*) AS links, coalesce(sum(totals.clicks), 0) AS clicks
        FROM links JOIN json_each(links.tags) AS tag
        LEFT JOIN clicks.click_totals AS totals ON totals.link_id = links.id
        WHERE ${where.join(' AND ')}
        GROUP BY tag.value ORDER BY tag.value LIMIT @limit`;
      let statement = this.#statements.get(sql);
      if (statement === undefined) {
        statement = this.#connection().prepare<Record<string, unknown>, TagRow>(sql);
        this.#statements.set(sql, statement);
      }
      return statement.all(params).map((row) => ({ ...row }));
    });
  }
}
