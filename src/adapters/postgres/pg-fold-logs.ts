import type pg from 'pg';
import type { ClickBucket } from '../../domain/click-fold.js';
import { clickSecondsOf, dimensionsOf, visitsOf } from '../../domain/click-visits.js';
import type { FoldLogChoice } from '../sql/fold-log-choice.js';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), on the fold's connection
 * and inside its transaction: when the visit log is on, one row per counted bucket holding
 * its clicks' visits (ADR 0130), and, unless nobody reads them (ADR 0131), one click event
 * per link and second. A visit whose day has no partition yet goes to the DEFAULT
 * partition.
 */
export async function writeFoldLogs(
  client: pg.PoolClient,
  counted: readonly ClickBucket[],
  logs: FoldLogChoice,
): Promise<void> {
  if (counted.length === 0) return;
  if (logs.visits) {
    const v = visitsOf(counted);
    await client.query(
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[],
         $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::int[])`,
      [
        v.map((x) => x.visit.linkId),
        v.map((x) => x.visit.at),
        v.map((x) => x.visit.country),
        v.map((x) => x.visit.city),
        v.map((x) => x.visit.device),
        v.map((x) => x.visit.os),
        v.map((x) => x.visit.browser),
        v.map((x) => x.visit.language),
        v.map((x) => x.visit.referrerHost),
        v.map((x) => x.visit.bot),
        v.map((x) => x.clicks),
      ],
    );
  }
  if (!logs.clickEvents) return;
  const seconds = clickSecondsOf(counted);
  await client.query(
    `INSERT INTO click_events (link_id, second, clicks, bot_clicks, dimensions, recorded_at)
     SELECT *, $6::bigint FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[],
       $5::jsonb[])`,
    [
      seconds.map((s) => s.linkId),
      seconds.map((s) => s.second),
      seconds.map((s) => s.clicks),
      seconds.map((s) => s.botClicks),
      seconds.map((s) => JSON.stringify(dimensionsOf(s))),
      logs.nowMs,
    ],
  );
}
