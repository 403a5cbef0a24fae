import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { NO_CITY, NO_REFERRER, OTHER_CITY, OTHER_REFERRER } from '../../domain/click-event.js';
import { clicksPerHour, linkHourKey, planFold, type FoldPlan } from '../../domain/click-fold.js';
import type { ClickTally } from '../../domain/click-tally.js';
import type { SeqIntervals } from '../../domain/seq-intervals.js';
import type { FoldOptions, FoldResult } from '../../ports/click-store.js';
import { insertInBatches } from './mariadb-click-batches.js';
import { writeFoldLogs } from './mariadb-fold-logs.js';
import { inTransaction } from './mariadb-transaction.js';

/** As on SQLite and PostgreSQL: a long-gone instance's folded ids are forgotten after a week. */
const SEEN_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * The fold's turn (migration 0004, ADR 0140): written first by every fold, so folds on one
 * node wait for each other and folds on two Galera nodes conflict at COMMIT.
 */
const TAKE_TURN = `INSERT INTO click_fold_turn (id, folds) VALUES (1, 1)
  ON DUPLICATE KEY UPDATE folds = folds + 1`;

/** Link and hour pairs, keyed by `linkHourKey`. */
type LinkHours = Map<string, readonly [string, number]>;

/**
 * Adds tallies to the aggregates in one transaction (ClickStore.fold), as PostgreSQL's
 * fold does. Everything it decides on (the ids folded, the hosts and cities stored) is read
 * after it has its turn and inside the transaction, so a run again after a lost
 * certification (inTransaction) decides again on what the winner wrote: exactly once per
 * event id, bounds kept.
 */
export function foldTallies(
  pool: Pool,
  tallies: readonly ClickTally[],
  maxReferrers: number,
  options: FoldOptions,
): Promise<FoldResult> {
  const wanted = whatFoldReads(tallies);
  return inTransaction(pool, async (connection) => {
    await connection.query(TAKE_TURN);
    const plan = planFold(
      tallies,
      {
        seen: await readSeen(connection, wanted.instances),
        referrers: await readStored(connection, 'referrers', wanted.referrerHours),
        cities: await readStored(connection, 'cities', wanted.cityHours),
      },
      maxReferrers,
    );
    await writeCounts(connection, plan);
    const now = Date.now();
    await writeFoldLogs(connection, plan.counts, {
      visits: options.logVisits === true,
      clickEvents: options.logClickEvents !== false,
      nowMs: now,
      // Scaled out, every instance's fold writes its logs itself: no spool here.
      spool: false,
    });
    await writeSeen(connection, plan.seen, now);
    if (plan.newestAt !== null) {
      await connection.query(
        `INSERT INTO click_freshness (id, newest_at) VALUES (1, ?)
         ON DUPLICATE KEY UPDATE newest_at = GREATEST(newest_at, VALUES(newest_at))`,
        [plan.newestAt],
      );
    }
    return { counted: plan.counted, duplicates: plan.duplicates };
  });
}

/**
 * The instances of the tallies, and the link hours whose stored values the bounds need:
 * only hours whose clicks name a referrer host need the hosts stored, only those that name
 * a city, the cities.
 */
function whatFoldReads(tallies: readonly ClickTally[]) {
  const instances = new Set<string>();
  const referrerHours: LinkHours = new Map();
  const cityHours: LinkHours = new Map();
  for (const tally of tallies) {
    instances.add(tally.instance);
    for (const { linkId, hour, referrer, city } of tally.buckets) {
      if (referrer !== NO_REFERRER && referrer !== OTHER_REFERRER) {
        referrerHours.set(linkHourKey(linkId, hour), [linkId, hour]);
      }
      if (city !== NO_CITY && city !== OTHER_CITY) {
        cityHours.set(linkHourKey(linkId, hour), [linkId, hour]);
      }
    }
  }
  return { instances, referrerHours, cityHours };
}

interface SeenRow extends RowDataPacket {
  instance: string;
  /** JSON text (the pool's jsonStrings). */
  intervals: string;
}

async function readSeen(
  connection: PoolConnection,
  instances: ReadonlySet<string>,
): Promise<Map<string, SeqIntervals>> {
  const seen = new Map<string, SeqIntervals>();
  if (instances.size === 0) return seen;
  const [rows] = await connection.query<SeenRow[]>(
    'SELECT instance, intervals FROM click_seen WHERE instance IN (?)',
    [[...instances]],
  );
  for (const { instance, intervals } of rows) {
    seen.set(instance, JSON.parse(intervals) as SeqIntervals);
  }
  return seen;
}

interface StoredValueRow extends RowDataPacket {
  link_id: string;
  hour: number;
  value: string;
}

const STORED_VALUES = {
  referrers: `SELECT DISTINCT link_id, hour, referrer_host AS value FROM click_hourly
    WHERE link_id IN (?) AND hour IN (?)`,
  cities: `SELECT link_id, hour, value FROM click_hourly_facets
    WHERE link_id IN (?) AND hour IN (?) AND facet = 'city'`,
} as const;

/**
 * The values stored per link hour asked for. Links and hours are asked as two lists (each
 * link's range of the primary key); pairs not asked for are left out.
 */
async function readStored(
  connection: PoolConnection,
  kind: keyof typeof STORED_VALUES,
  pairs: LinkHours,
): Promise<Map<string, Set<string>>> {
  const values = new Map<string, Set<string>>();
  if (pairs.size === 0) return values;
  const links = new Set<string>();
  const hours = new Set<number>();
  for (const [linkId, hour] of pairs.values()) {
    links.add(linkId);
    hours.add(hour);
  }
  const [rows] = await connection.query<StoredValueRow[]>(STORED_VALUES[kind], [
    [...links],
    [...hours],
  ]);
  for (const row of rows) {
    const key = linkHourKey(row.link_id, row.hour);
    if (!pairs.has(key)) continue;
    let known = values.get(key);
    if (known === undefined) {
      known = new Set();
      values.set(key, known);
    }
    known.add(row.value);
  }
  return values;
}

/** The plan's counts, added to the stored ones (`INSERT … ON DUPLICATE KEY UPDATE`). */
async function writeCounts(connection: PoolConnection, plan: FoldPlan): Promise<void> {
  if (plan.buckets.length > 0) {
    await insertInBatches(
      connection,
      `INSERT INTO click_hourly (link_id, hour, country, device_class, referrer_host, clicks)
       VALUES ? ON DUPLICATE KEY UPDATE clicks = clicks + VALUES(clicks)`,
      plan.buckets.map((b) => [b.linkId, b.hour, b.country, b.device, b.referrer, b.clicks]),
    );
    // In link id order, as keepStartingCounts writes them: the two never lock in a cycle.
    const totals = [...plan.totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await insertInBatches(
      connection,
      `INSERT INTO click_totals (link_id, clicks, bot_clicks) VALUES ?
       ON DUPLICATE KEY UPDATE clicks = clicks + VALUES(clicks),
         bot_clicks = bot_clicks + VALUES(bot_clicks)`,
      totals.map(([linkId, counts]) => [linkId, counts.clicks, counts.botClicks]),
    );
    await insertInBatches(
      connection,
      `INSERT INTO click_hour_totals (hour, clicks) VALUES ?
       ON DUPLICATE KEY UPDATE clicks = clicks + VALUES(clicks)`,
      [...clicksPerHour(plan.buckets)],
    );
  }
  if (plan.facets.length > 0) {
    await insertInBatches(
      connection,
      `INSERT INTO click_hourly_facets (link_id, hour, facet, value, clicks) VALUES ?
       ON DUPLICATE KEY UPDATE clicks = clicks + VALUES(clicks)`,
      plan.facets.map((f) => [f.linkId, f.hour, f.facet, f.value, f.clicks]),
    );
  }
}

/** The instances' new folded ids, then the forgetting of instances long gone. */
async function writeSeen(
  connection: PoolConnection,
  seen: FoldPlan['seen'],
  now: number,
): Promise<void> {
  if (seen.size > 0) {
    await insertInBatches(
      connection,
      `INSERT INTO click_seen (instance, intervals, updated_at) VALUES ?
       ON DUPLICATE KEY UPDATE intervals = VALUES(intervals), updated_at = VALUES(updated_at)`,
      [...seen].map(([instance, intervals]) => [instance, JSON.stringify(intervals), now]),
    );
  }
  await connection.query('DELETE FROM click_seen WHERE updated_at < ?', [now - SEEN_RETENTION_MS]);
}
