import type pg from 'pg';
import { NO_CITY, NO_REFERRER, OTHER_CITY, OTHER_REFERRER } from '../../domain/click-event.js';
import {
  AGENT_SEPARATOR,
  FACET_DIMENSIONS,
  clicksPerHour,
  linkHourKey,
  NO_CLICKS,
  planFold,
  type ClickCounts,
} from '../../domain/click-fold.js';
import type { ClickTally } from '../../domain/click-tally.js';
import type { SeqIntervals } from '../../domain/seq-intervals.js';
import type {
  ClickStore,
  BusiestLinks,
  ClickSummary,
  DimensionCount,
  FoldOptions,
  FoldResult,
  StartingCount,
} from '../../ports/click-store.js';
import { guardPg } from './pg-errors.js';
import { inTransaction } from './pg-transaction.js';
import { writeFoldLogs } from './pg-fold-logs.js';
import { PEOPLE_CLICKS } from '../sql/click-sql.js';

/** As on SQLite: a long-gone instance's folded ids are forgotten after a week. */
const SEEN_RETENTION_MS = 7 * 24 * 3_600_000;
/** The advisory lock folds take turns under ("hopf"): each sees the ids the other folded. */
const FOLD_LOCK = 0x686f7066;
/** Held while ranking the busiest links ("hopr"): one ranker at a time, the others skip. */
const RANK_LOCK = 0x686f7072;

const DIMENSIONS = ['country', 'device_class', 'referrer_host'] as const;

/** `click_hourly` and its companions on PostgreSQL; several workers may fold at once. */
export class PgClickStore implements ClickStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async fold(
    tallies: readonly ClickTally[],
    maxReferrers: number,
    options: FoldOptions = {},
  ): Promise<FoldResult> {
    const instances = new Set<string>();
    // Only hours whose clicks name a referrer host need the hosts already stored; only
    // those that name a city, the cities.
    const linkHours = new Map<string, [string, number]>();
    const cityHours = new Map<string, [string, number]>();
    for (const tally of tallies) {
      instances.add(tally.instance);
      for (const { linkId, hour, referrer, city } of tally.buckets) {
        if (referrer !== NO_REFERRER && referrer !== OTHER_REFERRER) {
          linkHours.set(linkHourKey(linkId, hour), [linkId, hour]);
        }
        if (city !== NO_CITY && city !== OTHER_CITY) {
          cityHours.set(linkHourKey(linkId, hour), [linkId, hour]);
        }
      }
    }
    return guardPg('fold clicks', () =>
      inTransaction(this.#pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
        const seen = new Map<string, SeqIntervals>();
        const seenRows = await client.query<{ instance: string; intervals: SeqIntervals }>(
          'SELECT instance, intervals FROM click_seen WHERE instance = ANY($1::text[])',
          [[...instances]],
        );
        for (const row of seenRows.rows) seen.set(row.instance, row.intervals);
        const stored = async (sql: string, pairs: Map<string, [string, number]>) => {
          const values = new Map<string, Set<string>>();
          if (pairs.size === 0) return values;
          const listed = [...pairs.values()];
          const rows = await client.query<{ link_id: string; hour: number; value: string }>(sql, [
            listed.map((pair) => pair[0]),
            listed.map((pair) => pair[1]),
          ]);
          for (const row of rows.rows) {
            const key = linkHourKey(row.link_id, row.hour);
            let known = values.get(key);
            if (known === undefined) {
              known = new Set();
              values.set(key, known);
            }
            known.add(row.value);
          }
          return values;
        };
        const referrers = await stored(
          `SELECT DISTINCT h.link_id, h.hour, h.referrer_host AS value
           FROM unnest($1::text[], $2::bigint[]) AS p(link_id, hour)
           JOIN click_hourly AS h ON h.link_id = p.link_id AND h.hour = p.hour`,
          linkHours,
        );
        const cities = await stored(
          `SELECT f.link_id, f.hour, f.value
           FROM unnest($1::text[], $2::bigint[]) AS p(link_id, hour)
           JOIN click_hourly_facets AS f
             ON f.link_id = p.link_id AND f.hour = p.hour AND f.facet = 'city'`,
          cityHours,
        );
        const plan = planFold(tallies, { seen, referrers, cities }, maxReferrers);
        if (plan.buckets.length > 0) {
          const b = plan.buckets;
          await client.query(
            `INSERT INTO click_hourly (link_id, hour, country, device_class, referrer_host, clicks)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[])
             ON CONFLICT (link_id, hour, country, device_class, referrer_host)
             DO UPDATE SET clicks = click_hourly.clicks + excluded.clicks`,
            [
              b.map((x) => x.linkId),
              b.map((x) => x.hour),
              b.map((x) => x.country),
              b.map((x) => x.device),
              b.map((x) => x.referrer),
              b.map((x) => x.clicks),
            ],
          );
          const totals = [...plan.totals];
          await client.query(
            `INSERT INTO click_totals (link_id, clicks, bot_clicks)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
             ON CONFLICT (link_id) DO UPDATE SET clicks = click_totals.clicks + excluded.clicks,
               bot_clicks = click_totals.bot_clicks + excluded.bot_clicks`,
            [
              totals.map((x) => x[0]),
              totals.map((x) => x[1].clicks),
              totals.map((x) => x[1].botClicks),
            ],
          );
          const perHour = [...clicksPerHour(plan.buckets)];
          await client.query(
            `INSERT INTO click_hour_totals (hour, clicks)
             SELECT * FROM unnest($1::bigint[], $2::bigint[])
             ON CONFLICT (hour) DO UPDATE SET clicks = click_hour_totals.clicks + excluded.clicks`,
            [perHour.map((x) => x[0]), perHour.map((x) => x[1])],
          );
        }
        if (plan.facets.length > 0) {
          const f = plan.facets;
          await client.query(
            `INSERT INTO click_hourly_facets (link_id, hour, facet, value, clicks)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])
             ON CONFLICT (link_id, hour, facet, value)
             DO UPDATE SET clicks = click_hourly_facets.clicks + excluded.clicks`,
            [
              f.map((x) => x.linkId),
              f.map((x) => x.hour),
              f.map((x) => x.facet),
              f.map((x) => x.value),
              f.map((x) => x.clicks),
            ],
          );
        }
        const now = Date.now();
        await writeFoldLogs(client, plan.counts, {
          visits: options.logVisits === true,
          clickEvents: options.logClickEvents !== false,
          nowMs: now,
          // Scaled out, every instance's fold writes its logs itself: no spool here.
          spool: false,
        });
        if (plan.seen.size > 0) {
          const seenNow = [...plan.seen];
          await client.query(
            `INSERT INTO click_seen (instance, intervals, updated_at)
             SELECT instance, intervals::jsonb, $3 FROM unnest($1::text[], $2::text[]) AS s(instance, intervals)
             ON CONFLICT (instance) DO UPDATE SET intervals = excluded.intervals, updated_at = excluded.updated_at`,
            [seenNow.map((x) => x[0]), seenNow.map((x) => JSON.stringify(x[1])), now],
          );
        }
        await client.query('DELETE FROM click_seen WHERE updated_at < $1', [
          now - SEEN_RETENTION_MS,
        ]);
        if (plan.newestAt !== null) {
          await client.query(
            `INSERT INTO click_freshness (id, newest_at) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET newest_at = greatest(click_freshness.newest_at, excluded.newest_at)`,
            [plan.newestAt],
          );
        }
        return { counted: plan.counted, duplicates: plan.duplicates };
      }),
    );
  }

  async summarize(linkId: string, fromHour: number, toHour: number): Promise<ClickSummary> {
    return guardPg('read clicks', async () => {
      // One statement, one snapshot: the hours and the breakdowns agree.
      const { rows } = await this.#pool.query<{
        kind: string;
        value: string;
        clicks: number;
        bot_clicks: number;
      }>(
        `WITH h AS (SELECT * FROM click_hourly WHERE link_id = $1 AND hour >= $2 AND hour < $3),
           f AS (SELECT * FROM click_hourly_facets WHERE link_id = $1 AND hour >= $2 AND hour < $3)
         SELECT 'hour' AS kind, hour::text AS value,
           coalesce(sum(clicks) FILTER (WHERE ${PEOPLE_CLICKS}), 0)::bigint AS clicks,
           coalesce(sum(clicks) FILTER (WHERE NOT ${PEOPLE_CLICKS}), 0)::bigint AS bot_clicks
         FROM h GROUP BY hour
         ${DIMENSIONS.map(
           (d) =>
             `UNION ALL SELECT '${d}', ${d}, sum(clicks)::bigint, 0 FROM h WHERE ${PEOPLE_CLICKS} GROUP BY ${d}`,
         ).join('\n')}
         UNION ALL SELECT 'browser', split_part(value, '${AGENT_SEPARATOR}', 1), sum(clicks)::bigint, 0
           FROM f WHERE facet = 'agent' GROUP BY 2
         UNION ALL SELECT 'os', split_part(value, '${AGENT_SEPARATOR}', 2), sum(clicks)::bigint, 0
           FROM f WHERE facet = 'agent' GROUP BY 2
         UNION ALL SELECT facet, value, sum(clicks)::bigint, 0 FROM f WHERE facet = 'city'
           GROUP BY facet, value`,
        [linkId, fromHour, toHour],
      );
      const hours: { hour: number; clicks: number; botClicks: number }[] = [];
      const byDimension = new Map<string, DimensionCount[]>(
        [...DIMENSIONS, ...FACET_DIMENSIONS].map((d) => [d, []]),
      );
      for (const row of rows) {
        if (row.kind === 'hour') {
          hours.push({ hour: Number(row.value), clicks: row.clicks, botClicks: row.bot_clicks });
        } else byDimension.get(row.kind)?.push({ value: row.value, clicks: row.clicks });
      }
      hours.sort((a, b) => a.hour - b.hour);
      const ranked = (d: (typeof DIMENSIONS)[number] | (typeof FACET_DIMENSIONS)[number]) =>
        (byDimension.get(d) ?? []).sort((a, b) =>
          b.clicks !== a.clicks ? b.clicks - a.clicks : a.value < b.value ? -1 : 1,
        );
      return {
        hours,
        countries: ranked('country'),
        devices: ranked('device_class'),
        referrers: ranked('referrer_host'),
        browsers: ranked('browser'),
        oses: ranked('os'),
        cities: ranked('city'),
      };
    });
  }

  async clicksBetween(fromHour: number, toHour: number): Promise<number> {
    return guardPg('read clicks', async () => {
      const { rows } = await this.#pool.query<{ clicks: number }>(
        `SELECT coalesce(sum(clicks), 0)::bigint AS clicks FROM click_hour_totals
         WHERE hour >= $1 AND hour < $2`,
        [fromHour, toHour],
      );
      return rows[0]?.clicks ?? 0;
    });
  }

  async rankBusiest(fromHour: number, toHour: number, top: number, nowMs: number): Promise<void> {
    await guardPg('rank links', () =>
      inTransaction(this.#pool, async (client) => {
        const locked = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1) AS locked',
          [RANK_LOCK],
        );
        if (locked.rows[0]?.locked !== true) return;
        await client.query('DELETE FROM click_busiest');
        await client.query(
          `INSERT INTO click_busiest (link_id, clicks)
           SELECT link_id, sum(clicks) AS total FROM click_hourly
           WHERE hour >= $1 AND hour < $2 AND ${PEOPLE_CLICKS} GROUP BY link_id ORDER BY total DESC, link_id LIMIT $3`,
          [fromHour, toHour, top],
        );
        await client.query(
          `INSERT INTO click_busiest_ranked (id, ranked_at) VALUES (1, $1)
           ON CONFLICT (id) DO UPDATE SET ranked_at = excluded.ranked_at`,
          [nowMs],
        );
      }),
    );
  }

  async busiest(): Promise<BusiestLinks> {
    return guardPg('read clicks', async () => {
      // One statement, one snapshot: the ranking and its time agree.
      const { rows } = await this.#pool.query<{ link_id: string | null; clicks: number }>(
        `SELECT NULL AS link_id, ranked_at AS clicks FROM click_busiest_ranked
         UNION ALL SELECT link_id, clicks FROM click_busiest`,
      );
      let rankedAt: number | null = null;
      const links: { linkId: string; clicks: number }[] = [];
      for (const row of rows) {
        if (row.link_id === null) rankedAt = row.clicks;
        else links.push({ linkId: row.link_id, clicks: row.clicks });
      }
      links.sort((a, b) =>
        b.clicks !== a.clicks ? b.clicks - a.clicks : a.linkId < b.linkId ? -1 : 1,
      );
      return { rankedAt, links };
    });
  }

  async totals(linkIds: readonly string[]): Promise<ReadonlyMap<string, ClickCounts>> {
    const totals = new Map<string, ClickCounts>(linkIds.map((id) => [id, NO_CLICKS]));
    if (linkIds.length === 0) return totals;
    return guardPg('read clicks', async () => {
      const { rows } = await this.#pool.query<{
        link_id: string;
        clicks: number;
        bot_clicks: number;
      }>('SELECT link_id, clicks, bot_clicks FROM click_totals WHERE link_id = ANY($1::text[])', [
        linkIds,
      ]);
      for (const row of rows) {
        totals.set(row.link_id, { clicks: row.clicks, botClicks: row.bot_clicks });
      }
      return totals;
    });
  }

  async keepStartingCounts(counts: readonly StartingCount[]): Promise<void> {
    if (counts.length === 0) return;
    return guardPg('keep starting counts', async () => {
      // A starting count replaces the one kept before (migration 0020, ADR 0136).
      await this.#pool.query(
        `INSERT INTO click_totals (link_id, clicks, bot_clicks, starting_clicks)
         SELECT link_id, clicks, 0, clicks FROM unnest($1::text[], $2::bigint[]) AS c (link_id, clicks)
         ON CONFLICT (link_id) DO UPDATE
           SET clicks = click_totals.clicks - click_totals.starting_clicks + excluded.starting_clicks,
             starting_clicks = excluded.starting_clicks`,
        [counts.map((count) => count.linkId), counts.map((count) => count.clicks)],
      );
    });
  }

  async freshness(): Promise<number | null> {
    return guardPg('read clicks', async () => {
      const { rows } = await this.#pool.query<{ newest_at: number }>(
        'SELECT newest_at FROM click_freshness WHERE id = 1',
      );
      return rows[0]?.newest_at ?? null;
    });
  }
}
