import type { LinkSelection } from '../../ports/click-analytics-queries.js';
import { PEOPLE_CLICKS } from '../sql/click-sql.js';

/**
 * The queries of `GET /v1/analytics` on MariaDB (ADR 0126, ADR 0140): click-analytics-sql.ts's
 * twins, which MariaDB cannot run as written (`AS MATERIALIZED`, `CAST(… AS TEXT)`, and one
 * `$n` used at several places where mysql2 has only positional `?`). Values are escaped into
 * the text by the driver's own escaping (`escape`), as its `?` would be.
 */
export interface AnalyticsEscape {
  readonly escape: (value: string | number) => string;
}

/** A whole number written into a statement (hours, limits): never text from a request. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number: ${value}`);
  return String(value);
}

/**
 * The ids of the selected links that are not deleted: the one place filters apply. An
 * empty list matches none (`IN ()` is not SQL). Tags: JSON_OVERLAPS for any of them,
 * JSON_CONTAINS for all, both comparing strings byte by byte.
 */
export function chosenLinksSql(selection: LinkSelection, sql: AnalyticsEscape): string {
  const inList = (column: string, values: readonly string[]) =>
    values.length === 0 ? 'FALSE' : `${column} IN (${values.map(sql.escape).join(', ')})`;
  const where = ["links.state <> 'deleted'"];
  if (selection.owner !== undefined) where.push(`links.owner = ${sql.escape(selection.owner)}`);
  if (selection.domains !== undefined) where.push(inList('links.domain', selection.domains));
  if (selection.linkIds !== undefined) where.push(inList('links.id', selection.linkIds));
  if (selection.tags !== undefined && selection.tags.length > 0) {
    const test = selection.tagsMode === 'all' ? 'JSON_CONTAINS' : 'JSON_OVERLAPS';
    where.push(`${test}(links.tags, ${sql.escape(JSON.stringify(selection.tags))})`);
  }
  return `chosen AS (SELECT links.id FROM links WHERE ${where.join(' AND ')})`;
}

/**
 * The chosen links' buckets in `[from, to)` summed several ways, rows `(kind, value,
 * clicks, bot_clicks)` as readSums takes them: per hour (bots apart), the `values` most
 * clicked countries, devices and referrers, the `top` links. readSums keeps the rows'
 * order, which the last ORDER BY makes most clicks first (ties by value, bytes: every
 * column is utf8mb4_bin), whatever order the derived tables come in.
 */
export function bucketSumsSql(
  chosen: string,
  range: { readonly from: number; readonly to: number },
  limits: { readonly top: number; readonly values: number },
): string {
  const by = (kind: string, column: string) =>
    `SELECT * FROM (SELECT '${kind}' AS kind, ${column} AS value, SUM(clicks) AS clicks,
        0 AS bot_clicks
      FROM picked WHERE people GROUP BY ${column}
      ORDER BY 3 DESC, ${column} LIMIT ${integer(limits.values)}) AS by_${kind}`;
  return `WITH ${chosen},
    picked AS (
      SELECT h.link_id, h.hour, h.country, h.device_class, h.referrer_host, h.clicks,
        (${PEOPLE_CLICKS}) AS people
      FROM chosen JOIN click_hourly AS h ON h.link_id = chosen.id
      WHERE h.hour >= ${integer(range.from)} AND h.hour < ${integer(range.to)})
    SELECT 'hour' AS kind, CAST(hour AS CHAR) AS value,
      SUM(CASE WHEN people THEN clicks ELSE 0 END) AS clicks,
      SUM(CASE WHEN people THEN 0 ELSE clicks END) AS bot_clicks
    FROM picked GROUP BY hour
    UNION ALL ${by('country', 'country')}
    UNION ALL ${by('device', 'device_class')}
    UNION ALL ${by('referrer', 'referrer_host')}
    UNION ALL SELECT * FROM (SELECT 'link' AS kind, link_id AS value,
        SUM(CASE WHEN people THEN clicks ELSE 0 END) AS clicks,
        SUM(CASE WHEN people THEN 0 ELSE clicks END) AS bot_clicks
      FROM picked GROUP BY link_id
      ORDER BY 3 DESC, 4 DESC, link_id LIMIT ${integer(limits.top)}) AS by_link
    ORDER BY kind, clicks DESC, bot_clicks DESC, value`;
}

/** The chosen links' people's clicks per agent (`browser/os`, ADR 0109): rows `(value, clicks)`. */
export function agentSumsSql(
  chosen: string,
  range: { readonly from: number; readonly to: number },
): string {
  return `WITH ${chosen}
    SELECT f.value, SUM(f.clicks) AS clicks
    FROM chosen JOIN click_hourly_facets AS f ON f.link_id = chosen.id
    WHERE f.hour >= ${integer(range.from)} AND f.hour < ${integer(range.to)}
      AND f.facet = 'agent'
    GROUP BY f.value`;
}
