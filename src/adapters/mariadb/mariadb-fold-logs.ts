import type { PoolConnection } from 'mysql2/promise';
import type { ClickBucket } from '../../domain/click-fold.js';
import { clickSecondsOf, dimensionsOf, visitsOf } from '../../domain/click-visits.js';
import type { FoldLogChoice } from '../sql/fold-log-choice.js';
import { insertInBatches } from './mariadb-click-batches.js';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), on the fold's connection
 * and inside its transaction, as on PostgreSQL: when the visit log is on, one row per
 * counted bucket holding its clicks' visits (ADR 0130), and, unless nobody reads them (ADR
 * 0131), one click event per link and second. Both tables number their rows by
 * AUTO_INCREMENT (on Galera each node draws its own values: ADR 0140); `visits` has no
 * partitions here, so a visit of any day goes to the one table.
 */
export async function writeFoldLogs(
  connection: PoolConnection,
  counted: readonly ClickBucket[],
  logs: FoldLogChoice,
): Promise<void> {
  if (counted.length === 0) return;
  if (logs.visits) {
    await insertInBatches(
      connection,
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks) VALUES ?`,
      visitsOf(counted).map(({ visit, clicks }) => [
        visit.linkId,
        visit.at,
        visit.country,
        visit.city,
        visit.device,
        visit.os,
        visit.browser,
        visit.language,
        visit.referrerHost,
        visit.bot,
        clicks,
      ]),
    );
  }
  if (!logs.clickEvents) return;
  await insertInBatches(
    connection,
    `INSERT INTO click_events (link_id, second, clicks, bot_clicks, dimensions, recorded_at)
     VALUES ?`,
    clickSecondsOf(counted).map((second) => [
      second.linkId,
      second.second,
      second.clicks,
      second.botClicks,
      JSON.stringify(dimensionsOf(second)),
      logs.nowMs,
    ]),
  );
}
