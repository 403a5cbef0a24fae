import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { addDomain, SECOND_DOMAIN } from '../../bench/support/second-domain.js';
import { checkAnswers } from '../../bench/support/smart-links.js';
import { tempDataDir } from '../support/temp-data.js';

/** The `domains` bench scenario's store edit and its check (issue 22's second-domain figure). */
describe('bench second domain', { timeout: 10_000 }, () => {
  test('the copy holds the second domain, https, without redirects, as hop reads it', async (t) => {
    const dir = tempDataDir(t);
    await SqliteStore.open({ file: join(dir, 'hop.db') }).close();

    addDomain(dir, SECOND_DOMAIN, 1_000);

    const reopened = SqliteStore.open({ file: join(dir, 'hop.db') });
    t.after(() => reopened.close());
    assert.deepEqual(await reopened.domains.listDomains(), [
      {
        host: SECOND_DOMAIN,
        rootRedirect: null,
        notFoundRedirect: null,
        https: true,
        createdAt: 1_000,
        updatedAt: 1_000,
      },
    ]);
  });

  test('the check sends its Host and expects a 404 there, naming the Host when it differs', async (t) => {
    const server = createServer((request, response) => {
      response.writeHead(request.headers.host === SECOND_DOMAIN ? 404 : 302, {
        location: 'https://example.com/',
      });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const { port } = server.address() as AddressInfo;
    const onSecond = { Host: SECOND_DOMAIN };
    await checkAnswers(port, {}, [
      { path: '/a', location: 'https://example.com/' },
      { path: '/a', headers: onSecond, status: 404 },
    ]);
    await assert.rejects(
      checkAnswers(port, {}, [{ path: '/a', headers: onSecond, location: 'https://example.com/' }]),
      /GET \/a \(Host: go\.bench\.test\) on port \d+ answered status 404, not 302/,
    );
    await assert.rejects(
      checkAnswers(port, {}, [{ path: '/a', status: 404 }]),
      /answered status 302, not 404/,
    );
  });
});
