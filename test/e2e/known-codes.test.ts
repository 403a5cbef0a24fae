import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually } from '../support/eventually.js';
import { runHop, startHop } from '../support/hop-process.js';

/** The value of one unlabelled metric in a /metrics text. */
function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} is exported`);
  return Number(line.slice(name.length + 1));
}

test('unknown codes skip the store; a link the CLI creates beside hop serve is found', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-known-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: 'hop_known_codes_e2e_key_012345' };
  const before = await runHop(
    ['links', 'create', 'https://example.com/before', '--alias', 'before-start'],
    env,
  );
  assert.equal(before.status, 0, before.stderr);

  const hop = await startHop(env);
  t.after(() => hop.child.kill('SIGKILL'));
  const metrics = async () => (await fetch(`${hop.url}/metrics`)).text();
  await eventually(async () => metric(await metrics(), 'hop_known_codes_ready') === 1, 'the load');

  // A code nobody created: 404, and neither L2 nor the store was asked.
  const skippedBefore = metric(await metrics(), 'hop_redirect_reads_skipped_total');
  const unknown = await fetch(`${hop.url}/NoSuchCode1`, { redirect: 'manual' });
  assert.equal(unknown.status, 404);
  assert.equal(metric(await metrics(), 'hop_redirect_reads_skipped_total'), skippedBefore + 1);

  const loaded = await fetch(`${hop.url}/before-start`, { redirect: 'manual' });
  assert.equal(loaded.status, 302, 'a link from before the start was loaded');

  // Another process writes to the same file; the catch-up finds it (bounded polling).
  const beside = await runHop(
    ['links', 'create', 'https://example.com/beside', '--alias', 'made-beside'],
    env,
  );
  assert.equal(beside.status, 0, beside.stderr);
  await eventually(
    async () => (await fetch(`${hop.url}/made-beside`, { redirect: 'manual' })).status === 302,
    'the CLI-created link redirecting',
    1000,
  );

  hop.child.kill('SIGTERM');
  assert.equal(await hop.exited, 0, hop.output());
  assert.doesNotMatch(hop.output(), /could not catch up/);
});

test('HOP_KNOWN_CODES=off: no filter is loaded, and every miss asks the store', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-known-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    HOP_DATA_DIR: dir,
    HOP_BOOTSTRAP_ADMIN_KEY: 'hop_known_codes_e2e_key_012345',
    HOP_KNOWN_CODES: 'off',
  };
  const hop = await startHop(env);
  t.after(() => hop.child.kill('SIGKILL'));
  const metrics = async () => (await fetch(`${hop.url}/metrics`)).text();
  const unknown = await fetch(`${hop.url}/NoSuchCode1`, { redirect: 'manual' });
  assert.equal(unknown.status, 404);
  const text = await metrics();
  assert.equal(metric(text, 'hop_known_codes_ready'), 0);
  assert.equal(metric(text, 'hop_redirect_reads_skipped_total'), 0);
  // Without a filter to catch up, a link made by another process redirects at once.
  const beside = await runHop(
    ['links', 'create', 'https://example.com/beside', '--alias', 'made-beside'],
    env,
  );
  assert.equal(beside.status, 0, beside.stderr);
  const found = await fetch(`${hop.url}/made-beside`, { redirect: 'manual' }).catch(
    (error: unknown) => {
      // Seen once or twice in full runs: say what the server said, not only "fetch failed".
      throw new Error(`GET /made-beside failed; hop said:\n${hop.output()}`, { cause: error });
    },
  );
  assert.equal(found.status, 302);
  hop.child.kill('SIGTERM');
  assert.equal(await hop.exited, 0, hop.output());
  assert.doesNotMatch(hop.output(), /known codes loaded/);
});
