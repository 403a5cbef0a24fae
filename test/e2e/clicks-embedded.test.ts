import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { sendClicks, startClickLoad } from '../support/click-load.js';
import { createLink, E2E_ADMIN_KEY, readCounts } from '../support/click-counts.js';
import { eventually } from '../support/eventually.js';
import { tempDataDir } from '../support/temp-data.js';
import { startHop, stopHop } from '../support/hop-process.js';
import { volume } from '../support/volume.js';

const FLUSH_INTERVAL_MS = 1000;
/** Several flushes' worth at 100 in flight; 20,000 under `npm run test:scale`. */
const CLICKS = volume(4_000, 20_000);

async function serve(t: TestContext, dataDir: string, env: Record<string, string> = {}) {
  const hop = await startHop({
    HOP_DATA_DIR: dataDir,
    HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
    HOP_CLICK_FLUSH_INTERVAL: `${FLUSH_INTERVAL_MS}ms`,
    ...env,
  });
  t.after(() => hop.child.kill('SIGKILL'));
  return hop;
}

describe('click counting, embedded (hop serve on SQLite)', () => {
  test(`${CLICKS.toLocaleString('en')} concurrent clicks on one link are counted exactly`, async (t) => {
    const dataDir = tempDataDir(t, 'hop-clicks-e2e-');
    const hop = await serve(t, dataDir);
    const link = await createLink(hop.url);
    const result = await sendClicks(`${hop.url}/${link.code}`, CLICKS, 100);
    assert.deepEqual(result, { redirected: CLICKS, failed: 0 });
    await eventually(
      async () => readCounts(dataDir, link.id).clicks >= CLICKS,
      'all clicks folded',
      2000,
    );
    const response = await fetch(`${hop.url}/v1/links/${link.id}`, {
      headers: { authorization: `Bearer ${E2E_ADMIN_KEY}` },
    });
    assert.equal(((await response.json()) as { clicks: number }).clicks, CLICKS);
    await stopHop(hop);
    // Nothing was left to fold twice: after a clean stop and a start, still exactly as many.
    const again = await serve(t, dataDir);
    await eventually(async () => readCounts(dataDir, link.id).queued === 0, 'queue folded', 1000);
    assert.equal(readCounts(dataDir, link.id).clicks, CLICKS);
    await stopHop(again);
  });

  test('SIGTERM flushes the buffer before exit', async (t) => {
    const dataDir = tempDataDir(t, 'hop-clicks-e2e-');
    // Never flushed on a timer: only the shutdown can send these clicks on.
    const hop = await serve(t, dataDir, { HOP_CLICK_FLUSH_INTERVAL: '1h' });
    const link = await createLink(hop.url);
    assert.equal((await sendClicks(`${hop.url}/${link.code}`, 500, 10)).redirected, 500);
    assert.equal(readCounts(dataDir, link.id).clicks, 0, 'nothing is flushed before SIGTERM');
    await stopHop(hop);
    const again = await serve(t, dataDir);
    await eventually(
      async () => readCounts(dataDir, link.id).clicks === 500,
      'the 500 clicks flushed at SIGTERM are folded',
      1000,
    );
    await stopHop(again);
  });

  test('SIGKILL under load loses at most one flush interval of clicks, never counts one too many', async (t) => {
    const dataDir = tempDataDir(t, 'hop-clicks-e2e-');
    const hop = await serve(t, dataDir);
    const link = await createLink(hop.url);
    const load = startClickLoad(`${hop.url}/${link.code}`, 20);
    // Under load through several flushes and folds.
    await eventually(
      async () => {
        const first = load.redirectedAt()[0];
        return first !== undefined && Date.now() - first > 4 * FLUSH_INTERVAL_MS;
      },
      'four flush intervals of load',
      3000,
    );
    const killedAt = Date.now();
    hop.child.kill('SIGKILL');
    await hop.exited;
    await load.stop();

    const again = await serve(t, dataDir);
    await eventually(async () => readCounts(dataDir, link.id).queued === 0, 'queue folded', 1000);
    const counted = readCounts(dataDir, link.id).clicks;
    const redirected = load.redirectedAt().length;
    const lastInterval = load
      .redirectedAt()
      .filter((at) => at >= killedAt - FLUSH_INTERVAL_MS - 500).length;
    const shortfall = redirected - counted;
    console.log(
      `# SIGKILL under load: sent ${load.sent()}, redirected ${redirected}, counted ${counted}, ` +
        `shortfall ${shortfall}; redirects in the last flush interval (+0.5 s): ${lastInterval}`,
    );
    assert.ok(counted > 0, 'clicks flushed before the kill were kept');
    assert.ok(counted <= load.sent(), 'never more clicks than requests');
    assert.ok(counted <= redirected, 'never more clicks than redirects answered');
    assert.ok(
      shortfall <= lastInterval,
      `lost ${shortfall}, more than the last flush interval's ${lastInterval}`,
    );
    await stopHop(again);
  });
});
