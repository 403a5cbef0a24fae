import { AGENT_SEPARATOR } from '../../domain/click-fold.js';
import type { DimensionCount } from '../../ports/click-store.js';
import type { ClicksAcrossLinks, LinkSelection } from '../../ports/click-analytics-queries.js';
import { PEOPLE_CLICKS } from './click-sql.js';

/** What differs between the engines in the queries of `GET /v1/analytics` (ADR 0126). */
export interface AnalyticsDialect {
  /** Binds a value; returns its placeholder. */
  readonly param: (value: unknown) => string;
  /** Where the click tables are as this connection sees them: `clicks.` on SQLite. */
  readonly clicks: string;
  /** `column` is one of `values` (a text array bound as one parameter). */
  readonly inList: (column: string, values: readonly string[]) => string;
  /** The link carries any (or all) of `tags`. */
  readonly hasTags: (tags: readonly string[], all: boolean) => string;
  /** Text compared byte by byte, so ties sort alike on both engines. */
  readonly bytes: (column: string) => string;
}

/** The ids of the selected links that are not deleted: the one place filters apply. */
export function chosenLinksSql(selection: LinkSelection, sql: AnalyticsDialect): string {
  const where = ["links.state <> 'deleted'"];
  if (selection.owner !== undefined) where.push(`links.owner = ${sql.param(selection.owner)}`);
  if (selection.domains !== undefined) where.push(sql.inList('links.domain', selection.domains));
  if (selection.linkIds !== undefined) where.push(sql.inList('links.id', selection.linkIds));
  if (selection.tags !== undefined && selection.tags.length > 0) {
    where.push(sql.hasTags(selection.tags, selection.tagsMode === 'all'));
  }
  return `chosen AS MATERIALIZED (SELECT links.id FROM links WHERE ${where.join(' AND ')})`;
}

/**
 * One pass over the chosen links' buckets (each link's own range of `click_hourly`, by its
 * primary key), summed several ways: rows `(kind, value, clicks, bot_clicks)`.
 */
export function bucketSumsSql(
  chosen: string,
  range: { readonly from: string; readonly to: string },
  limits: { readonly top: string; readonly values: string },
  sql: AnalyticsDialect,
): string {
  const by = (kind: string, column: string) =>
    `SELECT * FROM (SELECT '${kind}' AS kind, ${column} AS value, sum(clicks) AS clicks, 0 AS bot_clicks
      FROM picked WHERE people GROUP BY ${column}
      ORDER BY 3 DESC, ${sql.bytes(column)} LIMIT ${limits.values}) AS by_${kind}`;
  return `WITH ${chosen},
    picked AS MATERIALIZED (
      SELECT h.link_id, h.hour, h.country, h.device_class, h.referrer_host, h.clicks,
        (${PEOPLE_CLICKS}) AS people
      FROM chosen JOIN ${sql.clicks}click_hourly AS h ON h.link_id = chosen.id
      WHERE h.hour >= ${range.from} AND h.hour < ${range.to})
    SELECT 'hour' AS kind, CAST(hour AS TEXT) AS value,
      sum(CASE WHEN people THEN clicks ELSE 0 END) AS clicks,
      sum(CASE WHEN people THEN 0 ELSE clicks END) AS bot_clicks
    FROM picked GROUP BY hour
    UNION ALL ${by('country', 'country')}
    UNION ALL ${by('device', 'device_class')}
    UNION ALL ${by('referrer', 'referrer_host')}
    UNION ALL SELECT * FROM (SELECT 'link' AS kind, link_id AS value,
        sum(CASE WHEN people THEN clicks ELSE 0 END) AS clicks,
        sum(CASE WHEN people THEN 0 ELSE clicks END) AS bot_clicks
      FROM picked GROUP BY link_id
      ORDER BY 3 DESC, 4 DESC, ${sql.bytes('link_id')} LIMIT ${limits.top}) AS by_link`;
}

/** The chosen links' people's clicks per agent (`browser/os`, ADR 0109): rows `(value, clicks)`. */
export function agentSumsSql(
  chosen: string,
  range: { readonly from: string; readonly to: string },
  sql: AnalyticsDialect,
): string {
  return `WITH ${chosen}
    SELECT f.value, sum(f.clicks) AS clicks
    FROM chosen JOIN ${sql.clicks}click_hourly_facets AS f ON f.link_id = chosen.id
    WHERE f.hour >= ${range.from} AND f.hour < ${range.to} AND f.facet = 'agent'
    GROUP BY f.value`;
}

/** One row of `bucketSumsSql`; counts may arrive as text (PostgreSQL's numeric). */
export interface BucketSumRow {
  readonly kind: string;
  readonly value: string;
  readonly clicks: number | string;
  readonly bot_clicks: number | string;
}

export type SummedAcrossLinks = Omit<ClicksAcrossLinks, 'topLinks'> & {
  readonly top: readonly { readonly linkId: string; clicks: number; botClicks: number }[];
};

/** The rows of both queries as the port answers them, but for the top links' names. */
export function readSums(
  buckets: readonly BucketSumRow[],
  agents: readonly { readonly value: string; readonly clicks: number | string }[],
  maxValues: number,
): SummedAcrossLinks {
  const hours: { hour: number; clicks: number; botClicks: number }[] = [];
  const dimensions = new Map<string, DimensionCount[]>([
    ['country', []],
    ['device', []],
    ['referrer', []],
  ]);
  const top: { linkId: string; clicks: number; botClicks: number }[] = [];
  for (const row of buckets) {
    const clicks = Number(row.clicks);
    if (row.kind === 'hour') {
      hours.push({ hour: Number(row.value), clicks, botClicks: Number(row.bot_clicks) });
    } else if (row.kind === 'link') {
      top.push({ linkId: row.value, clicks, botClicks: Number(row.bot_clicks) });
    } else {
      dimensions.get(row.kind)?.push({ value: row.value, clicks });
    }
  }
  hours.sort((a, b) => a.hour - b.hour);
  const browsers = new Map<string, number>();
  const oses = new Map<string, number>();
  for (const { value, clicks } of agents) {
    const at = value.indexOf(AGENT_SEPARATOR);
    const add = (into: Map<string, number>, name: string) =>
      into.set(name, (into.get(name) ?? 0) + Number(clicks));
    add(browsers, value.slice(0, at));
    add(oses, value.slice(at + 1));
  }
  return {
    hours,
    countries: dimensions.get('country') ?? [],
    devices: dimensions.get('device') ?? [],
    referrers: dimensions.get('referrer') ?? [],
    browsers: mostFirst(browsers, maxValues),
    oses: mostFirst(oses, maxValues),
    top,
  };
}

function mostFirst(counts: ReadonlyMap<string, number>, max: number): DimensionCount[] {
  return [...counts]
    .filter(([, clicks]) => clicks > 0)
    .map(([value, clicks]) => ({ value, clicks }))
    .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, max);
}

/** The top links' code, domain and title, as read from `links`. */
export interface NamedLinkRow {
  readonly id: string;
  readonly code: string;
  readonly domain: string;
  readonly title: string | null;
}

/** The port's answer: the sums, the top links named (one purged meanwhile left out). */
export function withNamedLinks(
  sums: SummedAcrossLinks,
  rows: readonly NamedLinkRow[],
): ClicksAcrossLinks {
  const named = new Map(rows.map((row) => [row.id, row]));
  const { top, ...rest } = sums;
  return {
    ...rest,
    topLinks: top.flatMap((link) => {
      const row = named.get(link.linkId);
      return row === undefined
        ? []
        : [{ ...link, code: row.code, domain: row.domain, title: row.title }];
    }),
  };
}
