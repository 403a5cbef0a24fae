import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../support/eventually.js';
import { runHop, startHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';

/**
 * The embedded store's change feed: a link that the CLI disables beside a running `hop
 * serve` stops redirecting there although it sits in L1, whose TTL here is an hour, so
 * only the feed can explain it.
 */
test('hop links disable and enable beside hop serve reach its L1 through the change feed', async (t) => {
  const dir = tempDataDir(t, 'hop-changes-');
  const env = {
    HOP_DATA_DIR: dir,
    HOP_BOOTSTRAP_ADMIN_KEY: 'hop_change_feed_e2e_key_0123456',
    HOP_L1_TTL: '1h',
  };
  const created = await runHop(
    ['links', 'create', 'https://example.com/takedown', '--alias', 'takedown'],
    env,
  );
  assert.equal(created.status, 0, created.stderr);
  const hop = await startHop(env);
  t.after(() => hop.child.kill('SIGKILL'));
  const status = async () => (await fetch(`${hop.url}/takedown`, { redirect: 'manual' })).status;
  const l1Hits = async () => {
    const text = await (await fetch(`${hop.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('hop_l1_requests_total{result="hit"}'));
    return Number(line?.split(' ')[1] ?? 0);
  };

  assert.equal(await status(), 302);
  const hitsBefore = await l1Hits();
  assert.equal(await status(), 302);
  assert.equal(await l1Hits(), hitsBefore + 1, 'the link is answered from L1');

  const disabled = await runHop(['links', 'disable', 'takedown'], env);
  assert.equal(disabled.status, 0, disabled.stderr);
  await eventually(async () => (await status()) === 404, 'the disabled link turning 404', 1000);

  const enabled = await runHop(['links', 'enable', 'takedown'], env);
  assert.equal(enabled.status, 0, enabled.stderr);
  await eventually(
    async () => (await status()) === 302,
    'the enabled link redirecting again',
    1000,
  );

  hop.child.kill('SIGTERM');
  assert.equal(await hop.exited, 0, hop.output());
  assert.doesNotMatch(hop.output(), /link changes could not be read/);
});
