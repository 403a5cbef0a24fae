import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestContext } from 'node:test';

const HOUR = Date.UTC(2026, 5, 1, 12);
const NEXT_HOUR = HOUR + 3_600_000;

/** A folder holding the migrations of `dir` older than `version`: a store as it once was. */
export function migrationsBefore(t: TestContext, dir: URL, version: number): URL {
  const older = mkdtempSync(join(tmpdir(), 'hop-migrations-'));
  t.after(() => {
    rmSync(older, { recursive: true, force: true });
  });
  for (const file of readdirSync(dir)) {
    if (/^\d{4}_/.test(file) && Number(file.slice(0, 4)) < version) {
      copyFileSync(new URL(file, dir), join(older, file));
    }
  }
  return pathToFileURL(`${older}/`);
}

/**
 * Clicks folded before bots were counted apart (ADR 0094): link-a has 3 people's clicks
 * and 6 bots' in its total of 9; link-b 1 person's. Valid SQL on SQLite and PostgreSQL.
 */
export const CLICKS_BEFORE_BOTS_APART = `
  INSERT INTO click_hourly (link_id, hour, country, device_class, referrer_host, clicks) VALUES
    ('link-a', ${HOUR}, 'DE', 'mobile', '', 3),
    ('link-a', ${HOUR}, 'DE', 'bot', '', 2),
    ('link-a', ${NEXT_HOUR}, 'ZZ', 'bot', 'x.example', 4),
    ('link-b', ${HOUR}, 'FR', 'desktop', '', 1);
  INSERT INTO click_totals (link_id, clicks) VALUES ('link-a', 9), ('link-b', 1);
  INSERT INTO click_hour_totals (hour, clicks) VALUES (${HOUR}, 6), (${NEXT_HOUR}, 4);
`;

/** What the migration must leave of CLICKS_BEFORE_BOTS_APART, read with the queries below. */
export function assertBotsSplitOut(
  totals: readonly { link_id: string; clicks: unknown; bot_clicks: unknown }[],
  hours: readonly { hour: unknown; clicks: unknown }[],
): void {
  // Numbers however the driver hands bigint over (a plain pg client: as strings).
  assert.deepEqual(
    totals.map((row) => ({
      link_id: row.link_id,
      clicks: Number(row.clicks),
      bot_clicks: Number(row.bot_clicks),
    })),
    [
      { link_id: 'link-a', clicks: 3, bot_clicks: 6 },
      { link_id: 'link-b', clicks: 1, bot_clicks: 0 },
    ],
  );
  assert.deepEqual(
    hours.map((row) => ({ hour: Number(row.hour), clicks: Number(row.clicks) })),
    [
      { hour: HOUR, clicks: 4 },
      { hour: NEXT_HOUR, clicks: 0 },
    ],
  );
}

export const READ_TOTALS = 'SELECT link_id, clicks, bot_clicks FROM click_totals ORDER BY link_id';
export const READ_HOUR_TOTALS = 'SELECT hour, clicks FROM click_hour_totals ORDER BY hour';
