import type pg from 'pg';
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
import { guardPg } from './pg-errors.js';
import { NUL } from './pg-link-rows.js';
import { inTransaction } from './pg-transaction.js';

/** `GET /v1/analytics` on PostgreSQL (ADR 0126): links and buckets in one database. */
export class PgClickAnalyticsQueries implements ClickAnalyticsQueries {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async summarizeLinks(
    selection: LinkSelection,
    fromHour: number,
    toHour: number,
    limits: { readonly topLinks: number; readonly maxValues: number },
  ): Promise<ClicksAcrossLinks> {
    return guardPg('sum clicks across links', async () => {
      // Text holds no NUL: a value with one matches no stored link.
      const usable = (values: readonly string[] | undefined) =>
        values?.filter((value) => !value.includes(NUL));
      const tags = usable(selection.tags);
      const tagsLost = (tags?.length ?? 0) < (selection.tags?.length ?? 0);
      // A lost tag: `all` can no longer match; `any` cannot when none is left.
      const impossible =
        selection.owner?.includes(NUL) === true ||
        (tagsLost && (selection.tagsMode === 'all' || tags?.length === 0));
      const cleaned: LinkSelection = {
        ...selection,
        domains: usable(selection.domains),
        linkIds: usable(selection.linkIds),
        tags,
      };
      const query = (build: (sql: AnalyticsDialect, params: unknown[]) => string) => {
        const params: unknown[] = [];
        return { text: build(pgDialect(params), params), values: params };
      };
      const range = (sql: AnalyticsDialect) => ({
        from: sql.param(fromHour),
        to: sql.param(toHour),
      });
      const buckets = query((sql) =>
        bucketSumsSql(
          chosenLinksSql(impossible ? { linkIds: [] } : cleaned, sql),
          range(sql),
          { top: sql.param(limits.topLinks), values: sql.param(limits.maxValues) },
          sql,
        ),
      );
      const agents = query((sql) =>
        agentSumsSql(chosenLinksSql(impossible ? { linkIds: [] } : cleaned, sql), range(sql), sql),
      );
      return inTransaction(this.#pool, async (client) => {
        // Both sums and the names see one snapshot.
        await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const sums = readSums(
          (await client.query<BucketSumRow>(buckets)).rows,
          (await client.query<{ value: string; clicks: string }>(agents)).rows,
          limits.maxValues,
        );
        const { rows } = await client.query<NamedLinkRow>(
          'SELECT id, code, domain, title FROM links WHERE id = ANY($1::text[])',
          [sums.top.map((link) => link.linkId)],
        );
        return withNamedLinks(sums, rows);
      });
    });
  }
}

function pgDialect(params: unknown[]): AnalyticsDialect {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  return {
    param,
    clicks: '',
    inList: (column, values) => `${column} = ANY(${param(values)}::text[])`,
    // jsonb's ?| and ?& test array elements; the GIN index links_tags serves both.
    hasTags: (tags, all) => `links.tags ${all ? '?&' : '?|'} ${param(tags)}::text[]`,
    bytes: (column) => `${column} COLLATE "C"`,
  };
}
