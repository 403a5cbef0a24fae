import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createLink, E2E_ADMIN_KEY, readCounts } from '../support/click-counts.js';
import { eventually } from '../support/eventually.js';
import { runHop, startHop, stopHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';
import { DESKTOP } from '../support/user-agents.js';

test('hop backup copies hop.db and clicks.db while hop serve writes; the copy restores and serves', async (t) => {
  const dir = tempDataDir(t, 'hop-backup-');
  const env = {
    HOP_DATA_DIR: dir,
    HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
    HOP_CLICK_FLUSH_INTERVAL: '100ms',
  };
  const hop = await startHop(env);
  t.after(() => hop.child.kill('SIGKILL'));
  const clicked = await createLink(hop.url);
  const asBrowser = { redirect: 'manual', headers: { 'user-agent': DESKTOP } } as const;
  assert.equal((await fetch(`${hop.url}/${clicked.code}`, asBrowser)).status, 302);
  // Folded by hop serve's aggregator thread, every 15 s.
  await eventually(async () => readCounts(dir, clicked.id).clicks === 1, 'the click folded', 3000);

  // Writes go on through the backup: links created and followed one after another.
  const created: { id: string; code: string }[] = [];
  let writing = true;
  const writer = (async () => {
    while (writing) {
      const link = await createLink(hop.url);
      created.push(link);
      await fetch(`${hop.url}/${link.code}`, { redirect: 'manual' });
    }
  })();
  await eventually(async () => created.length >= 20, 'twenty links written');
  const before = created.length;
  const file = join(tempDataDir(t, 'hop-backup-to-'), 'hop-backup.db');
  const backup = await runHop(['backup', file], env);
  const during = created.length;
  writing = false;
  await writer;
  assert.equal(backup.status, 0, backup.stderr);
  assert.match(backup.stdout, new RegExp(`backed up ${dir}/hop\\.db to ${file} \\(\\d+ pages\\)`));
  assert.match(backup.stdout, new RegExp(`backed up ${dir}/clicks\\.db to ${file}-clicks`));
  assert.ok(during > before, 'links were written while the backup ran');

  // Every link made before the backup began is in it, and the copy checks clean.
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  t.after(() => copy.close());
  assert.equal(copy.pragma('quick_check', { simple: true }), 'ok');
  const codes = new Set(copy.prepare<[], string>('SELECT code FROM links').pluck().all());
  for (const link of [clicked, ...created.slice(0, before)]) assert.ok(codes.has(link.code));
  const clicks = new Database(`${file}-clicks`, { readonly: true, fileMustExist: true });
  t.after(() => clicks.close());
  assert.equal(clicks.pragma('quick_check', { simple: true }), 'ok');

  // A backup never overwrites one.
  const again = await runHop(['backup', file], env);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already exists: name a new backup file/);
  await stopHop(hop);

  // Restore as the README says: the two files into an empty HOP_DATA_DIR.
  const restored = tempDataDir(t, 'hop-restored-');
  copyFileSync(file, join(restored, 'hop.db'));
  copyFileSync(`${file}-clicks`, join(restored, 'clicks.db'));
  const served = await startHop({ ...env, HOP_DATA_DIR: restored });
  t.after(() => served.child.kill('SIGKILL'));
  const redirect = await fetch(`${served.url}/${clicked.code}`, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('location'), 'https://example.com/counted');
  const read = await fetch(`${served.url}/v1/links/${clicked.id}`, {
    headers: { authorization: `Bearer ${E2E_ADMIN_KEY}` },
  });
  assert.ok(
    ((await read.json()) as { clicks: number }).clicks >= 1,
    'the counted click came along',
  );
  await stopHop(served);
});

test('hop backup where no database is refuses and names the folder', async (t) => {
  const dir = tempDataDir(t, 'hop-backup-none-');
  const run = await runHop(['backup', join(dir, 'b.db')], { HOP_DATA_DIR: join(dir, 'data') });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /there is no hop database in .*data \(HOP_DATA_DIR\)/);
});
