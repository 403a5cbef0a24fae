import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainBlocklist } from '../../src/domain/domain-blocklist.js';
import { reloadBlocklist } from '../../src/jobs/reload-blocklist.js';
import { capturingLogger } from '../support/capturing-logger.js';

test('the blocklist is read again only when its file changed, and a failed read keeps the old list', async () => {
  const { logger, lines } = capturingLogger();
  const file = { stamp: 'a' as string | null, domains: ['evil.example'], reads: 0, readable: true };
  const blocklist = new DomainBlocklist(file.domains);
  const job = reloadBlocklist({
    file: {
      stamp: () => Promise.resolve(file.stamp),
      read: () => {
        file.reads++;
        return file.readable ? Promise.resolve(file.domains) : Promise.reject(new Error('gone'));
      },
    },
    readAt: 'a',
    blocklist,
    logger,
  });
  const stopping = new AbortController().signal;
  const blocks = (host: string) => blocklist.blocksUrl(`https://${host}/x`);

  await job.run(stopping);
  assert.equal(file.reads, 0, 'unchanged since start: not read');

  file.stamp = 'b';
  file.domains = ['evil.example', 'good.example'];
  await job.run(stopping);
  await job.run(stopping);
  assert.equal(file.reads, 1, 'read once per change');
  assert.ok(blocks('good.example'));

  // Removed: the read fails, the list stays; nothing more while it stays away.
  file.stamp = null;
  file.readable = false;
  await job.run(stopping);
  await job.run(stopping);
  assert.equal(file.reads, 2);
  assert.ok(blocks('good.example') && blocks('evil.example'));

  file.stamp = 'c';
  file.readable = true;
  file.domains = ['evil.example'];
  await job.run(stopping);
  assert.ok(!blocks('good.example'));
  assert.deepEqual(
    lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
    [
      'blocklist reloaded',
      'blocklist could not be read again; keeping the old one',
      'blocklist reloaded',
    ],
  );
});
