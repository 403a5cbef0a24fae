import type { Pool, RowDataPacket } from 'mysql2/promise';
import {
  AGENT_SEPARATOR,
  FACET_DIMENSIONS,
  NO_CLICKS,
  type ClickCounts,
} from '../../domain/click-fold.js';
import type { ClickTally } from '../../domain/click-tally.js';
import type {
  BusiestLinks,
  ClickStore,
  ClickSummary,
  DimensionCount,
  FoldOptions,
  FoldResult,
  StartingCount,
} from '../../ports/click-store.js';
import { PEOPLE_CLICKS } from '../sql/click-sql.js';
import { insertInBatches } from './mariadb-click-batches.js';
import { foldTallies } from './mariadb-click-fold.js';
import { guardMariaDb } from './mariadb-errors.js';
import { inTransaction } from './mariadb-transaction.js';

const DIMENSIONS = ['country', 'device_class', 'referrer_host'] as const;
type SummaryDimension = (typeof DIMENSIONS)[number] | (typeof FACET_DIMENSIONS)[number];

/** An agent facet's browser and os (`chrome/windows`), as PostgreSQL's split_part reads them. */
const BROWSER_OF_AGENT = `SUBSTRING_INDEX(value, '${AGENT_SEPARATOR}', 1)`;
const OS_OF_AGENT = `SUBSTRING_INDEX(SUBSTRING_INDEX(value, '${AGENT_SEPARATOR}', 2), '${AGENT_SEPARATOR}', -1)`;

/**
 * A link's summary in one statement, one snapshot: the hours and the breakdowns agree.
 * Takes the link, from and to twice (`h`, then `f`).
 */
const SUMMARY = `WITH
    h AS (SELECT hour, country, device_class, referrer_host, clicks FROM click_hourly
      WHERE link_id = ? AND hour >= ? AND hour < ?),
    f AS (SELECT facet, value, clicks FROM click_hourly_facets
      WHERE link_id = ? AND hour >= ? AND hour < ?)
  SELECT 'hour' AS kind, CAST(hour AS CHAR) AS value,
    COALESCE(SUM(CASE WHEN ${PEOPLE_CLICKS} THEN clicks END), 0) AS clicks,
    COALESCE(SUM(CASE WHEN ${PEOPLE_CLICKS} THEN NULL ELSE clicks END), 0) AS bot_clicks
  FROM h GROUP BY hour
  ${DIMENSIONS.map(
    (d) =>
      `UNION ALL SELECT '${d}', ${d}, SUM(clicks), 0 FROM h WHERE ${PEOPLE_CLICKS} GROUP BY ${d}`,
  ).join('\n  ')}
  UNION ALL SELECT 'browser', ${BROWSER_OF_AGENT}, SUM(clicks), 0 FROM f WHERE facet = 'agent' GROUP BY 2
  UNION ALL SELECT 'os', ${OS_OF_AGENT}, SUM(clicks), 0 FROM f WHERE facet = 'agent' GROUP BY 2
  UNION ALL SELECT facet, value, SUM(clicks), 0 FROM f WHERE facet = 'city' GROUP BY facet, value`;

interface SummaryRow extends RowDataPacket {
  kind: string;
  value: string;
  clicks: number;
  bot_clicks: number;
}

interface TotalsRow extends RowDataPacket {
  link_id: string;
  clicks: number;
  bot_clicks: number;
}

interface BusiestRow extends RowDataPacket {
  /** Null on the row of the ranking's time, whose `clicks` is that time. */
  link_id: string | null;
  clicks: number;
}

/**
 * `click_hourly` and its companions on MariaDB (issue 25, ADR 0140), as on PostgreSQL;
 * several workers, on several Galera nodes, may fold at once (mariadb-click-fold.ts).
 */
export class MariaDbClickStore implements ClickStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  fold(
    tallies: readonly ClickTally[],
    maxReferrers: number,
    options: FoldOptions = {},
  ): Promise<FoldResult> {
    return guardMariaDb('fold clicks', () =>
      foldTallies(this.#pool, tallies, maxReferrers, options),
    );
  }

  async summarize(linkId: string, fromHour: number, toHour: number): Promise<ClickSummary> {
    const [rows] = await guardMariaDb('read clicks', () =>
      this.#pool.query<SummaryRow[]>(SUMMARY, [linkId, fromHour, toHour, linkId, fromHour, toHour]),
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
    const ranked = (d: SummaryDimension) =>
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
  }

  async clicksBetween(fromHour: number, toHour: number): Promise<number> {
    const [rows] = await guardMariaDb('read clicks', () =>
      this.#pool.query<({ clicks: number } & RowDataPacket)[]>(
        `SELECT COALESCE(SUM(clicks), 0) AS clicks FROM click_hour_totals
         WHERE hour >= ? AND hour < ?`,
        [fromHour, toHour],
      ),
    );
    return rows[0]?.clicks ?? 0;
  }

  /**
   * One ranker at a time, the others skip, as under PostgreSQL's try-lock: the ranking's
   * row is taken with SKIP LOCKED (ADR 0140). Rankers on two Galera nodes both write it;
   * the later COMMIT fails certification and ranks again, after the first.
   */
  async rankBusiest(fromHour: number, toHour: number, top: number, nowMs: number): Promise<void> {
    await guardMariaDb('rank links', () =>
      inTransaction(this.#pool, async (connection) => {
        const [mine] = await connection.query<RowDataPacket[]>(
          'SELECT id FROM click_busiest_ranked WHERE id = 1 FOR UPDATE SKIP LOCKED',
        );
        if (mine.length === 0) {
          // Skipped: another ranker holds it, or there was never a ranking (no row to lock).
          const [ranked] = await connection.query<RowDataPacket[]>(
            'SELECT id FROM click_busiest_ranked WHERE id = 1',
          );
          if (ranked.length > 0) return;
          // The first ranking makes the row, locked from now on; another first one waits.
          await connection.query(
            `INSERT INTO click_busiest_ranked (id, ranked_at) VALUES (1, ?)
             ON DUPLICATE KEY UPDATE ranked_at = VALUES(ranked_at)`,
            [nowMs],
          );
        }
        await connection.query('DELETE FROM click_busiest');
        await connection.query(
          `INSERT INTO click_busiest (link_id, clicks)
           SELECT link_id, SUM(clicks) AS total FROM click_hourly
           WHERE hour >= ? AND hour < ? AND ${PEOPLE_CLICKS}
           GROUP BY link_id ORDER BY total DESC, link_id LIMIT ?`,
          [fromHour, toHour, top],
        );
        await connection.query('UPDATE click_busiest_ranked SET ranked_at = ? WHERE id = 1', [
          nowMs,
        ]);
      }),
    );
  }

  async busiest(): Promise<BusiestLinks> {
    // One statement, one snapshot: the ranking and its time agree.
    const [rows] = await guardMariaDb('read clicks', () =>
      this.#pool.query<BusiestRow[]>(
        `SELECT NULL AS link_id, ranked_at AS clicks FROM click_busiest_ranked
         UNION ALL SELECT link_id, clicks FROM click_busiest`,
      ),
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
  }

  async totals(linkIds: readonly string[]): Promise<ReadonlyMap<string, ClickCounts>> {
    const totals = new Map<string, ClickCounts>(linkIds.map((id) => [id, NO_CLICKS]));
    if (linkIds.length === 0) return totals;
    const [rows] = await guardMariaDb('read clicks', () =>
      this.#pool.query<TotalsRow[]>(
        'SELECT link_id, clicks, bot_clicks FROM click_totals WHERE link_id IN (?)',
        [linkIds],
      ),
    );
    for (const row of rows) {
      totals.set(row.link_id, { clicks: row.clicks, botClicks: row.bot_clicks });
    }
    return totals;
  }

  async keepStartingCounts(counts: readonly StartingCount[]): Promise<void> {
    if (counts.length === 0) return;
    // In link id order, as folds write totals: the two never lock in a cycle.
    const rows = [...counts]
      .sort((a, b) => (a.linkId < b.linkId ? -1 : a.linkId > b.linkId ? 1 : 0))
      .map((count) => [count.linkId, count.clicks, 0, count.clicks]);
    await guardMariaDb('keep starting counts', () =>
      // A transaction, so that a write losing a certification (1213) is run again.
      inTransaction(this.#pool, async (connection) => {
        // A starting count replaces the one kept before (ADR 0136). MariaDB assigns left
        // to right: `clicks` is computed with the old starting_clicks, then that is set.
        await insertInBatches(
          connection,
          `INSERT INTO click_totals (link_id, clicks, bot_clicks, starting_clicks) VALUES ?
           ON DUPLICATE KEY UPDATE
             clicks = clicks - starting_clicks + VALUES(starting_clicks),
             starting_clicks = VALUES(starting_clicks)`,
          rows,
        );
      }),
    );
  }

  async freshness(): Promise<number | null> {
    const [rows] = await guardMariaDb('read clicks', () =>
      this.#pool.query<({ newest_at: number } & RowDataPacket)[]>(
        'SELECT newest_at FROM click_freshness WHERE id = 1',
      ),
    );
    return rows[0]?.newest_at ?? null;
  }
}
