import type Database from 'better-sqlite3';
import { linkHourKey, planFold } from '../../domain/click-fold.js';
import type { ClickTally } from '../../domain/click-tally.js';
import type { SeqIntervals } from '../../domain/seq-intervals.js';
import type {
  ClickStore,
  ClickSummary,
  DimensionCount,
  FoldResult,
} from '../../ports/click-store.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * How long an instance's folded event ids are remembered after its last fold. Events are
 * redelivered within seconds to minutes (an ack lost, a worker killed); a process's ids
 * are never reused, so forgetting a long-gone instance's set is safe.
 */
const SEEN_RETENTION_MS = 7 * 24 * 3_600_000;

type Summed = [string, number];

/** `click_hourly` and its companions (migration 0003) on SQLite. */
export class SqliteClickStore implements ClickStore {
  readonly #db: Database.Database;
  readonly #seen: Database.Statement<[string], string>;
  readonly #referrers: Database.Statement<[string, number], string>;
  readonly #addBucket: Database.Statement<[string, number, string, string, string, number]>;
  readonly #addTotal: Database.Statement<[string, number]>;
  readonly #saveSeen: Database.Statement<[string, string, number]>;
  readonly #forgetSeen: Database.Statement<[number]>;
  readonly #advanceFreshness: Database.Statement<[number]>;
  readonly #freshness: Database.Statement<[], number>;
  readonly #hours: Database.Statement<[string, number, number], [number, number]>;
  readonly #byCountry: Database.Statement<[string, number, number], Summed>;
  readonly #byDevice: Database.Statement<[string, number, number], Summed>;
  readonly #byReferrer: Database.Statement<[string, number, number], Summed>;
  readonly #totals: Database.Statement<[string], Summed>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#seen = db
      .prepare<[string], string>('SELECT intervals FROM click_seen WHERE instance = ?')
      .pluck();
    this.#referrers = db
      .prepare<[string, number], string>(
        'SELECT DISTINCT referrer_host FROM click_hourly WHERE link_id = ? AND hour = ?',
      )
      .pluck();
    this.#addBucket = db.prepare(
      `INSERT INTO click_hourly (link_id, hour, country, device_class, referrer_host, clicks)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    this.#addTotal = db.prepare(
      `INSERT INTO click_totals (link_id, clicks) VALUES (?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
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
      .prepare<[string, number, number], [number, number]>(
        `SELECT hour, sum(clicks) FROM click_hourly
         WHERE link_id = ? AND hour >= ? AND hour < ? GROUP BY hour ORDER BY hour`,
      )
      .raw();
    const byDimension = (column: string) =>
      db
        .prepare<[string, number, number], Summed>(
          `SELECT ${column}, sum(clicks) AS total FROM click_hourly
           WHERE link_id = ? AND hour >= ? AND hour < ?
           GROUP BY ${column} ORDER BY total DESC, ${column}`,
        )
        .raw();
    this.#byCountry = byDimension('country');
    this.#byDevice = byDimension('device_class');
    this.#byReferrer = byDimension('referrer_host');
    this.#totals = db
      .prepare<[string], Summed>(
        'SELECT link_id, clicks FROM click_totals WHERE link_id IN (SELECT value FROM json_each(?))',
      )
      .raw();
  }

  async fold(tallies: readonly ClickTally[], maxReferrers: number): Promise<FoldResult> {
    return guardSqlite('fold clicks', () => {
      const instances = new Set<string>();
      const linkHours = new Map<string, [string, number]>();
      for (const tally of tallies) {
        instances.add(tally.instance);
        for (const { linkId, hour } of tally.buckets) {
          linkHours.set(linkHourKey(linkId, hour), [linkId, hour]);
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
          const referrers = new Map<string, ReadonlySet<string>>();
          for (const [key, [linkId, hour]] of linkHours) {
            const hosts = this.#referrers.all(linkId, hour);
            if (hosts.length > 0) referrers.set(key, new Set(hosts));
          }
          const plan = planFold(tallies, { seen, referrers }, maxReferrers);
          for (const bucket of plan.buckets) {
            this.#addBucket.run(
              bucket.linkId,
              bucket.hour,
              bucket.country,
              bucket.device,
              bucket.referrer,
              bucket.clicks,
            );
          }
          for (const [linkId, clicks] of plan.totals) this.#addTotal.run(linkId, clicks);
          const now = Date.now();
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
          .map(([hour, clicks]) => ({ hour, clicks })),
        countries: counts(this.#byCountry.all(linkId, fromHour, toHour)),
        devices: counts(this.#byDevice.all(linkId, fromHour, toHour)),
        referrers: counts(this.#byReferrer.all(linkId, fromHour, toHour)),
      }))();
    });
  }

  async totals(linkIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return guardSqlite('read clicks', () => {
      const totals = new Map<string, number>(linkIds.map((id) => [id, 0]));
      if (linkIds.length === 0) return totals;
      for (const [linkId, clicks] of this.#totals.all(JSON.stringify(linkIds))) {
        totals.set(linkId, clicks);
      }
      return totals;
    });
  }

  async freshness(): Promise<number | null> {
    return guardSqlite('read clicks', () => this.#freshness.get() ?? null);
  }
}
