import type Database from 'better-sqlite3';
import type {
  ClickAnalyticsQueries,
  ClicksAcrossLinks,
  LinkSelection,
} from '../../ports/click-analytics-queries.js';
import {
  agentSumsSql,
  bucketSumsSql,
  chosenLinksSql,
  readSums,
  type AnalyticsDialect,
  type BucketSumRow,
  type NamedLinkRow,
  withNamedLinks,
} from '../sql/click-analytics-sql.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * `GET /v1/analytics` on SQLite (ADR 0126): links in hop.db, their buckets in clicks.db,
 * joined on the link repository's read-only connection with clicks.db attached (ADR
 * 0097), so no sum ever holds either file's write lock.
 */
export class SqliteClickAnalyticsQueries implements ClickAnalyticsQueries {
  readonly #connection: () => Database.Database;
  /** Statements by their SQL: the filters combine into a handful of shapes. */
  readonly #statements = new Map<string, Database.Statement<Record<string, unknown>>>();

  constructor(connectionWithClicks: () => Database.Database) {
    this.#connection = connectionWithClicks;
  }

  async summarizeLinks(
    selection: LinkSelection,
    fromHour: number,
    toHour: number,
    limits: { readonly topLinks: number; readonly maxValues: number },
  ): Promise<ClicksAcrossLinks> {
    return guardSqlite('sum clicks across links', () => {
      const params: Record<string, unknown> = {
        from: fromHour,
        to: toHour,
        top: limits.topLinks,
        values: limits.maxValues,
      };
      const dialect = sqliteDialect(params);
      const chosen = chosenLinksSql(selection, dialect);
      const range = { from: '@from', to: '@to' };
      const buckets = bucketSumsSql(chosen, range, { top: '@top', values: '@values' }, dialect);
      const agents = agentSumsSql(chosen, range, dialect);
      const db = this.#connection();
      // One read transaction: both sums and the names see the same state of both files.
      return db.transaction(() => {
        const sums = readSums(
          this.#all<BucketSumRow>(buckets, params),
          this.#all<{ value: string; clicks: number }>(agents, params),
          limits.maxValues,
        );
        return withNamedLinks(
          sums,
          this.#all<NamedLinkRow>(
            'SELECT id, code, domain, title FROM links WHERE id IN (SELECT value FROM json_each(@ids))',
            { ids: JSON.stringify(sums.top.map((link) => link.linkId)) },
          ),
        );
      })();
    });
  }

  #all<T>(sql: string, params: Record<string, unknown>): T[] {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#connection().prepare<Record<string, unknown>>(sql);
      this.#statements.set(sql, statement);
    }
    // better-sqlite3 refuses named parameters the statement does not use.
    const used: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(params)) {
      if (new RegExp(`@${name}\\b`).test(sql)) used[name] = value;
    }
    return statement.all(used) as T[];
  }
}

/** Lists bound as one JSON array each: a statement's text never grows with a filter's size. */
function sqliteDialect(params: Record<string, unknown>): AnalyticsDialect {
  const param = (value: unknown) => {
    const name = `p${Object.keys(params).length}`;
    params[name] = value;
    return `@${name}`;
  };
  return {
    param,
    clicks: 'clicks.',
    inList: (column, values) =>
      `${column} IN (SELECT value FROM json_each(${param(JSON.stringify(values))}))`,
    hasTags: (tags, all) => {
      const wanted = param(JSON.stringify(tags));
      return all
        ? `NOT EXISTS (SELECT 1 FROM json_each(${wanted}) AS wanted
            WHERE wanted.value NOT IN (SELECT value FROM json_each(links.tags)))`
        : `EXISTS (SELECT 1 FROM json_each(links.tags) AS tag
            WHERE tag.value IN (SELECT value FROM json_each(${wanted})))`;
    },
    bytes: (column) => column,
  };
}
