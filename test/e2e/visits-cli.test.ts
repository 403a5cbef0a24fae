import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sendClicks } from '../support/click-load.js';
import { createLink } from '../support/create-link.js';
import { runHop } from '../support/hop-process.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer } from '../support/test-server.js';

test('hop visits export writes a link’s visits as CSV, newest first, with a header row', async (t) => {
  const server = await startTestServer({ HOP_VISIT_LOG: 'on' });
  t.after(() => server.close());
  const link = await createLink(server, { destination: 'https://example.com/csv' });
  const start = server.clock.now();
  await sendClicks(`${server.url}/${link.code}`, 3, 1, {
    'accept-language': 'pt-BR, pt;q=0.9',
    referer: 'https://news.example/story',
  });
  server.clock.advance(5_000);
  await sendClicks(`${server.url}/${link.code}`, 2, 1, { 'user-agent': 'curl/8.4.0' });
  await settleClicks(server);

  const env = { HOP_DATA_DIR: server.dataDir, HOP_PUBLIC_URL: 'http://hop.test' };
  const from = new Date(start - 60_000).toISOString();
  const to = new Date(start + 60_000).toISOString();
  const out = join(server.dataDir, 'visits.csv');
  const run = await runHop(
    ['visits', 'export', '--link', link.code, '--from', from, '--to', to, '--out', out],
    env,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(existsSync(`${out}.tmp`), false);
  const second = (ms: number) => new Date(ms - (ms % 1000)).toISOString();
  assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n'), [
    'at,country,city,device,os,browser,language,referrer_host,bot',
    `${second(start + 5_000)},,,bot,other,other,,,true`,
    `${second(start + 5_000)},,,bot,other,other,,,true`,
    `${second(start)},,,other,other,other,pt,news.example,false`,
    `${second(start)},,,other,other,other,pt,news.example,false`,
    `${second(start)},,,other,other,other,pt,news.example,false`,
  ]);

  const stdout = await runHop(
    [
      'visits',
      'export',
      '--link',
      link.id,
      '--from',
      from,
      '--to',
      new Date(start + 1).toISOString(),
    ],
    env,
  );
  assert.equal(stdout.status, 0, stdout.stderr);
  assert.equal(stdout.stdout.trim().split('\n').length, 4, 'the header and the first three');

  const badRange = await runHop(
    ['visits', 'export', '--link', link.id, '--from', 'yesterday', '--to', to],
    env,
  );
  assert.equal(badRange.status, 1);
  assert.match(badRange.stderr, /from: must be an RFC 3339 timestamp/);
  const unknown = await runHop(
    ['visits', 'export', '--link', 'nosuchlink', '--from', from, '--to', to],
    env,
  );
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /not found|no link/i);
  const missing = await runHop(['visits', 'export', '--link', link.id], env);
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /--from/);
});
