import type Database from 'better-sqlite3';
import { NO_CITY, NO_REFERRER, OTHER_CITY, OTHER_REFERRER } from '../../domain/click-event.js';
import {
  AGENT_SEPARATOR,
  type ClickFacet,
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
import { SqliteFoldLogs } from './sqlite-fold-logs.js';
import { guardSqlite } from './sqlite-errors.js';
import { PEOPLE_CLICKS } from '../sql/click-sql.js';

/**
 * How long an instance's folded event ids are remembered after its last fold. Events are
 * redelivered within seconds to minutes (an ack lost, a worker killed); a process's ids
 * are never reused, so forgetting a long-gone instance's set is safe.
 */
const SEEN_RETENTION_MS = 7 * 24 * 3_600_000;

type Summed = [string, number];

/** `click_hourly` and its companions (clicks.db, click-migrations/0001) on SQLite. */
export class SqliteClickStore implements ClickStore {
  readonly #db: Database.Database;
  readonly #seen: Database.Statement<[string], string>;
  readonly #referrers: Database.Statement<[string], [string, number, string]>;
  readonly #cities: Database.Statement<[string], [string, number, string]>;
  readonly #addFacets: Database.Statement<[string]>;
  readonly #addBuckets: Database.Statement<[string]>;
  readonly #addTotals: Database.Statement<[string]>;
  readonly #keepStarting: Database.Statement<[string]>;
  readonly #saveSeen: Database.Statement<[string, string, number]>;
  readonly #forgetSeen: Database.Statement<[number]>;
  readonly #advanceFreshness: Database.Statement<[number]>;
  readonly #freshness: Database.Statement<[], number>;
  readonly #hours: Database.Statement<[string, number, number], [number, number, number]>;
  readonly #byCountry: Database.Statement<[string, number, number], Summed>;
  readonly #byDevice: Database.Statement<[string, number, number], Summed>;
  readonly #byReferrer: Database.Statement<[string, number, number], Summed>;
  readonly #byBrowser: Database.Statement<[string, number, number], Summed>;
  readonly #byOs: Database.Statement<[string, number, number], Summed>;
  readonly #byCity: Database.Statement<[string, number, number], Summed>;
  readonly #totals: Database.Statement<[string], [string, number, number]>;
  readonly #addHourTotals: Database.Statement<[string]>;
  readonly #clicksBetween: Database.Statement<[number, number], number | null>;
  readonly #rank: Database.Statement<[number, number, number], Summed>;
  readonly #forgetRanking: Database.Statement<[]>;
  readonly #keepRanked: Database.Statement<[string, number]>;
  readonly #markRanked: Database.Statement<[number]>;
  readonly #busiest: Database.Statement<[], Summed>;
  readonly #rankedAt: Database.Statement<[], number>;
  readonly #logs: SqliteFoldLogs;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#logs = new SqliteFoldLogs(db);
    this.#seen = db
      .prepare<[string], string>('SELECT intervals FROM click_seen WHERE instance = ?')
      .pluck();
    // Rows in batches, looped inside SQLite over a JSON array: a fold touching thousands of
    // links makes a call per 4,096 rows of each table (`bindInChunks`), not one per row
    // (each call from JavaScript costs more than the row it writes).
    this.#referrers = db
      .prepare<[string], [string, number, string]>(
        `SELECT DISTINCT h.link_id, h.hour, h.referrer_host
         FROM json_each(?) AS j
         JOIN click_hourly AS h ON h.link_id = j.value ->> 0 AND h.hour = j.value ->> 1`,
      )
      .raw();
    this.#cities = db
      .prepare<[string], [string, number, string]>(
        `SELECT f.link_id, f.hour, f.value
         FROM json_each(?) AS j
         JOIN click_hourly_facets AS f
           ON f.link_id = j.value ->> 0 AND f.hour = j.value ->> 1 AND f.facet = 'city'`,
      )
      .raw();
    this.#addFacets = db.prepare(
      `INSERT INTO click_hourly_facets (link_id, hour, facet, value, clicks)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4
       FROM json_each(?) WHERE true
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    this.#addBuckets = db.prepare(
      `INSERT INTO click_hourly (link_id, hour, country, device_class, referrer_host, clicks)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
       FROM json_each(?) WHERE true
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    this.#addTotals = db.prepare(
      `INSERT INTO click_totals (link_id, clicks, bot_clicks)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks,
         bot_clicks = bot_clicks + excluded.bot_clicks`,
    );
    // A starting count replaces the one kept before (click-migrations/0010, ADR 0136).
    this.#keepStarting = db.prepare(
      `INSERT INTO click_totals (link_id, clicks, bot_clicks, starting_clicks)
       SELECT value ->> 0, value ->> 1, 0, value ->> 1 FROM json_each(?) WHERE true
       ON CONFLICT DO UPDATE SET clicks = clicks - starting_clicks + excluded.starting_clicks,
         starting_clicks = excluded.starting_clicks`,
    );
    this.#saveSeen = db.prepare(
      `INSERT INTO click_seen (instance, intervals, updated_at) VALUES (?, ?, ?)
       ON CONFLICT DO UPDATE SET intervals = excluded.intervals, updated_at = excluded.updated_at`,
    );
    this.#forgetSeen = db.prepare('DELETE FROM click_seen WHERE updated_at < ?');
    this.#advanceFreshness = db.prepare(
      `INSERT INTO click_freshness (id, newest_at) VALUES (1, ?)
       ON CONFLICT DO UPDATE SET newest_at = max(newest_at, excluded.newest_at)`,
    );
    this.#freshness = db
      .prepare<[], number>('SELECT newest_at FROM click_freshness WHERE id = 1')
      .pluck();
    this.#hours = db
      .prepare<[string, number, number], [number, number, number]>(
        `SELECT hour, coalesce(sum(clicks) FILTER (WHERE ${PEOPLE_CLICKS}), 0),
           coalesce(sum(clicks) FILTER (WHERE NOT ${PEOPLE_CLICKS}), 0)
         FROM click_hourly
         WHERE link_id = ? AND hour >= ? AND hour < ? GROUP BY hour ORDER BY hour`,
      )
      .raw();
    const byDimension = (column: string) =>
      db
        .prepare<[string, number, number], Summed>(
          `SELECT ${column}, sum(clicks) AS total FROM click_hourly
           WHERE link_id = ? AND hour >= ? AND hour < ? AND ${PEOPLE_CLICKS}
           GROUP BY ${column} ORDER BY total DESC, ${column}`,
        )
        .raw();
    this.#byCountry = byDimension('country');
    this.#byDevice = byDimension('device_class');
    this.#byReferrer = byDimension('referrer_host');
    // Only people's clicks are in the facets (ADR 0094, 0109).
    const byFacet = (facet: ClickFacet, value: string) =>
      db
        .prepare<[string, number, number], Summed>(
          `SELECT ${value} AS v, sum(clicks) AS total FROM click_hourly_facets
           WHERE link_id = ? AND hour >= ? AND hour < ? AND facet = '${facet}'
           GROUP BY v ORDER BY total DESC, v`,
        )
        .raw();
    // An agent is `browser/os` (click-fold.ts): each read out of its half.
    this.#byBrowser = byFacet('agent', `substr(value, 1, instr(value, '${AGENT_SEPARATOR}') - 1)`);
    this.#byOs = byFacet('agent', `substr(value, instr(value, '${AGENT_SEPARATOR}') + 1)`);
    this.#byCity = byFacet('city', 'value');
    this.#totals = db
      .prepare<[string], [string, number, number]>(
        `SELECT link_id, clicks, bot_clicks FROM click_totals
         WHERE link_id IN (SELECT value FROM json_each(?))`,
      )
      .raw();
    // The dashboard's rollups (click-migrations/0003).
    this.#addHourTotals = db.prepare(
      `INSERT INTO click_hour_totals (hour, clicks)
       SELECT value ->> 0, value ->> 1 FROM json_each(?) WHERE true
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    this.#clicksBetween = db
      .prepare<[number, number], number | null>(
        'SELECT sum(clicks) FROM click_hour_totals WHERE hour >= ? AND hour < ?',
      )
      .pluck();
    this.#rank = db
      .prepare<[number, number, number], Summed>(
        `SELECT link_id, sum(clicks) AS total FROM click_hourly
         WHERE hour >= ? AND hour < ? AND ${PEOPLE_CLICKS} GROUP BY link_id ORDER BY total DESC, link_id LIMIT ?`,
      )
      .raw();
    this.#forgetRanking = db.prepare('DELETE FROM click_busiest');
    this.#keepRanked = db.prepare('INSERT INTO click_busiest (link_id, clicks) VALUES (?, ?)');
    this.#markRanked = db.prepare(
      `INSERT INTO click_busiest_ranked (id, ranked_at) VALUES (1, ?)
       ON CONFLICT DO UPDATE SET ranked_at = excluded.ranked_at`,
    );
    this.#busiest = db
      .prepare<[], Summed>(
        'SELECT link_id, clicks FROM click_busiest ORDER BY clicks DESC, link_id',
      )
      .raw();
    this.#rankedAt = db
      .prepare<[], number>('SELECT ranked_at FROM click_busiest_ranked WHERE id = 1')
      .pluck();
  }

  async fold(
    tallies: readonly ClickTally[],
    maxReferrers: number,
    options: FoldOptions = {},
  ): Promise<FoldResult> {
    return guardSqlite('fold clicks', () => {
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
      // IMMEDIATE: two aggregators folding at once take turns, each seeing the other's ids.
      return this.#db
        .transaction(() => {
          const seen = new Map<string, SeqIntervals>();
          for (const instance of instances) {
            const stored = this.#seen.get(instance);
            if (stored !== undefined) seen.set(instance, JSON.parse(stored) as SeqIntervals);
          }
          const stored = (
            query: Database.Statement<[string], [string, number, string]>,
            pairs: Map<string, [string, number]>,
          ) => {
            const values = new Map<string, Set<string>>();
            if (pairs.size === 0) return values;
            for (const [linkId, hour, value] of query.all(JSON.stringify([...pairs.values()]))) {
              const key = linkHourKey(linkId, hour);
              let known = values.get(key);
              if (known === undefined) {
                known = new Set();
                values.set(key, known);
              }
              known.add(value);
            }
            return values;
          };
          const referrers = stored(this.#referrers, linkHours);
          const cities = stored(this.#cities, cityHours);
          const plan = planFold(tallies, { seen, referrers, cities }, maxReferrers);
          bindInChunks(this.#addBuckets, plan.buckets, (b) => [
            b.linkId,
            b.hour,
            b.country,
            b.device,
            b.referrer,
            b.clicks,
          ]);
          bindInChunks(this.#addTotals, [...plan.totals], ([linkId, { clicks, botClicks }]) => [
            linkId,
            clicks,
            botClicks,
          ]);
          bindInChunks(this.#addHourTotals, [...clicksPerHour(plan.buckets)], (pair) => pair);
          bindInChunks(this.#addFacets, plan.facets, (f) => [
            f.linkId,
            f.hour,
            f.facet,
            f.value,
            f.clicks,
          ]);
          const now = Date.now();
          this.#logs.write(plan.counts, {
            visits: options.logVisits === true,
            clickEvents: options.logClickEvents !== false,
            nowMs: now,
            spool: options.spoolLogs === true,
          });
          for (const [instance, intervals] of plan.seen) {
            this.#saveSeen.run(instance, JSON.stringify(intervals), now);
          }
          this.#forgetSeen.run(now - SEEN_RETENTION_MS);
          if (plan.newestAt !== null) this.#advanceFreshness.run(plan.newestAt);
          return { counted: plan.counted, duplicates: plan.duplicates };
        })
        .immediate();
    });
  }

  async summarize(linkId: string, fromHour: number, toHour: number): Promise<ClickSummary> {
    return guardSqlite('read clicks', () => {
      const counts = (rows: Summed[]): DimensionCount[] =>
        rows.map(([value, clicks]) => ({ value, clicks }));
      return this.#db.transaction(() => ({
        hours: this.#hours
          .all(linkId, fromHour, toHour)
          .map(([hour, clicks, botClicks]) => ({ hour, clicks, botClicks })),
        countries: counts(this.#byCountry.all(linkId, fromHour, toHour)),
        devices: counts(this.#byDevice.all(linkId, fromHour, toHour)),
        referrers: counts(this.#byReferrer.all(linkId, fromHour, toHour)),
        browsers: counts(this.#byBrowser.all(linkId, fromHour, toHour)),
        oses: counts(this.#byOs.all(linkId, fromHour, toHour)),
        cities: counts(this.#byCity.all(linkId, fromHour, toHour)),
      }))();
    });
  }

  async clicksBetween(fromHour: number, toHour: number): Promise<number> {
    return guardSqlite('read clicks', () => this.#clicksBetween.get(fromHour, toHour) ?? 0);
  }

  async rankBusiest(fromHour: number, toHour: number, top: number, nowMs: number): Promise<void> {
    guardSqlite('rank links', () => {
      // Read first, outside the write: the long part never holds clicks.db's write lock.
      const ranked = this.#rank.all(fromHour, toHour, top);
      this.#db.transaction(() => {
        this.#forgetRanking.run();
        for (const [linkId, clicks] of ranked) this.#keepRanked.run(linkId, clicks);
        this.#markRanked.run(nowMs);
      })();
    });
  }

  async busiest(): Promise<BusiestLinks> {
    return guardSqlite('read clicks', () =>
      this.#db.transaction(() => ({
        rankedAt: this.#rankedAt.get() ?? null,
        links: this.#busiest.all().map(([linkId, clicks]) => ({ linkId, clicks })),
      }))(),
    );
  }

  async totals(linkIds: readonly string[]): Promise<ReadonlyMap<string, ClickCounts>> {
    return guardSqlite('read clicks', () => {
      const totals = new Map<string, ClickCounts>(linkIds.map((id) => [id, NO_CLICKS]));
      if (linkIds.length === 0) return totals;
      for (const [linkId, clicks, botClicks] of this.#totals.all(JSON.stringify(linkIds))) {
        totals.set(linkId, { clicks, botClicks });
      }
      return totals;
    });
  }

  async keepStartingCounts(counts: readonly StartingCount[]): Promise<void> {
    if (counts.length === 0) return;
    const rows = JSON.stringify(counts.map(({ linkId, clicks }) => [linkId, clicks]));
    guardSqlite('keep starting counts', () => {
      this.#keepStarting.run(rows);
    });
  }

  async freshness(): Promise<number | null> {
    return guardSqlite('read clicks', () => this.#freshness.get() ?? null);
  }
}

/**
 * Rows bound as JSON arrays of at most this many, each run by the statement in turn (in
 * the fold's one transaction; none for no rows). One array for a whole fold over many
 * links is a string of tens of MB, copied when bound and parsed whole by json_each: with
 * 15 s of `uniform` over 1M links in one fold, binding in chunks lowered the process's
 * peak from 1,148 to 1,030 MB (ADR 0145).
 */
const ROWS_PER_BIND = 4096;

function bindInChunks<T>(
  statement: Database.Statement<[string]>,
  rows: readonly T[],
  toRow: (row: T) => readonly unknown[],
): void {
  for (let from = 0; from < rows.length; from += ROWS_PER_BIND) {
    statement.run(JSON.stringify(rows.slice(from, from + ROWS_PER_BIND).map(toRow)));
  }
}
