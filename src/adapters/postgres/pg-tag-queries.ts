import type pg from 'pg';
import type { TagCount, TagQueries, TagQuery } from '../../ports/tag-queries.js';
import { guardPg } from './pg-errors.js';
import { NUL } from './pg-link-rows.js';

interface TagRow {
  name: string;
  /** bigint and numeric arrive as text. */
  links: string;
  clicks: string;
}

/** Tags counted from links.tags (ADR 0119), their clicks from click_totals beside them. */
export class PgTagQueries implements TagQueries {
  readonly #primary: pg.Pool;

  constructor(primary: pg.Pool) {
    this.#primary = primary;
  }

  async listTags(query: TagQuery): Promise<readonly TagCount[]> {
    const filters = [query.owner, query.name, query.search];
    // No stored tag or owner holds a NUL; the search may not either.
    if (filters.some((value) => value?.includes(NUL) === true)) return [];
    // Text cannot hold a NUL. Cut there: for names without one, "after a\0b" is "after a".
    const afterName = query.afterName?.split(NUL)[0];
    return guardPg('list tags', async () => {
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where = ["links.state <> 'deleted'"];
      if (query.owner !== undefined) where.push(`links.owner = ${param(query.owner)}`);
      if (query.domains !== undefined) {
        const domains = query.domains.filter((domain) => !domain.includes(NUL));
        where.push(`links.domain = ANY(${param(domains)}::text[])`);
      }
      if (query.name !== undefined) {
        // ? lets the GIN index (links_tags) find the few links first.
        const name = param(query.name);
        where.push(`links.tags ? ${name}`, `tag.name = ${name}`);
      }
      if (afterName !== undefined) where.push(`tag.name COLLATE "C" > ${param(afterName)}`);
      if (query.search !== undefined && query.search !== '') {
        where.push(`strpos(lower(tag.name), ${param(query.search.toLowerCase())}) > 0`);
      }
      // "C": code point order, as SQLite's BINARY, whatever the database's locale.
      const { rows } = await this.#primary.query<TagRow>(
        `SELECT tag.name COLLATE "C" AS name, count(*) AS links,
           coalesce(sum(totals.clicks), 0) AS clicks
         FROM links CROSS JOIN LATERAL jsonb_array_elements_text(links.tags) AS tag(name)
         LEFT JOIN click_totals AS totals ON totals.link_id = links.id
         WHERE ${where.join(' AND ')}
         GROUP BY 1 ORDER BY 1 LIMIT ${param(query.limit)}`,
        params,
      );
      return rows.map((row) => ({
        name: row.name,
        links: Number(row.links),
        clicks: Number(row.clicks),
      }));
    });
  }
}
