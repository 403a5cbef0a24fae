import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { openStore } from '../../src/main/open-store.js';
import { openWhenReachable } from '../../src/main/open-when-reachable.js';
import { createLogger } from '../../src/observability/logger.js';
import { eventually } from '../support/eventually.js';
import { ownPostgresForTest } from '../support/own-postgres.js';

/** Polls 10 ms apart: a bound on a wait (a loaded machine), never a claim about speed. */
const POLLS = 6000;

describe('a thread opening its own store during an outage (ADR 0153)', () => {
  test('waits for a stopped PostgreSQL, says so once, and opens a working store once it is back', async (t) => {
    const own = await ownPostgresForTest(t, 'hop-open-when-reachable-');
    if (own === null) return;
    const { db, dataDir, defer } = own;
    const config = loadConfig({
      HOP_DATA_DIR: dataDir,
      HOP_DATABASE_URL: db.primary.url,
      HOP_DATABASE_SCHEMA: 'hop_open_when_reachable',
    });
    const logger = createLogger('silent');
    // The server's own start, while the database answers: its schema is made.
    const first = await openStore(config, logger, false);
    await first.store.close();
    await db.primary.stop('fast');

    const waiting: unknown[] = [];
    let reached = 0;
    const opening = openWhenReachable(() => openStore(config, logger, false), {
      retryMs: 50,
      onWaiting: (error) => waiting.push(error),
      onReached: () => {
        reached++;
      },
    });
    await eventually(async () => waiting.length > 0, 'the first try failed and was told', POLLS);
    await db.primary.start();
    const opened = await opening;
    defer(() => opened.store.close());

    assert.equal(waiting.length, 1, 'the wait is told once, not at every try');
    assert.match(String(waiting[0]), /HOP_DATABASE_URL cannot be used/);
    assert.equal(reached, 1, 'and its end once');
    assert.deepEqual(await opened.store.domains.listDomains(), [], 'the store answers');
  });
});
