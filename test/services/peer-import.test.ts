import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { peerImportDepsOf } from '../../src/main/peer-import-deps.js';
import { authenticateKey } from '../../src/services/keys/authenticate.js';
import { importPeerLinks } from '../../src/services/links/peer-import/import-peer-links.js';
import type {
  PeerImportOutcome,
  PeerImportSummary,
} from '../../src/services/links/peer-import/peer-import-outcome.js';
import type { PeerLink, PeerRow } from '../../src/services/links/peer-import/peer-link.js';
import type { Principal } from '../../src/domain/principal.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CREATED = Date.parse('2019-03-04T05:06:07Z');

function peerLink(overrides: Partial<PeerLink> = {}): PeerLink {
  return {
    source: 'line 2',
    code: 'ab',
    domain: null,
    destination: 'https://example.com/a',
    title: null,
    tags: [],
    createdAt: CREATED,
    expiresAt: null,
    state: 'active',
    clicks: 0,
    passwordHash: null,
    ...overrides,
  };
}

async function* rowsOf(rows: readonly PeerRow[]): AsyncIterable<PeerRow> {
  for (const row of rows) yield row;
}

describe('importPeerLinks on SQLite', () => {
  let server: TestServer;
  let admin: Principal;

  before(async () => {
    server = await startTestServer();
    admin = await authenticateKey(server.runtime.keyService, server.adminKey);
  });
  after(() => server.close());

  const run = async (rows: readonly PeerRow[], dryRun = false) => {
    const outcomes: PeerImportOutcome[] = [];
    const summary: PeerImportSummary = await importPeerLinks(
      peerImportDepsOf(server.runtime),
      admin,
      rowsOf(rows),
      { dryRun, onOutcome: (outcome) => outcomes.push(outcome) },
    );
    return { summary, outcomes };
  };

  test('a 1-character code is kept, redirects, and starts with its peer clicks', async () => {
    const { summary, outcomes } = await run([
      peerLink({ code: 'k', destination: 'https://example.com/k', clicks: 41 }),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['imported'],
    );
    assert.equal(summary.imported, 1);
    assert.equal(summary.clicks, 41);
    const redirect = await server.request('GET', '/k', { key: null });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://example.com/k');
    const link = await server.request('GET', '/v1/links/k');
    assert.equal(link.status, 200);
    assert.equal(link.json.clicks, 41);
    assert.equal(link.json.created_at, new Date(CREATED).toISOString());
  });
});
