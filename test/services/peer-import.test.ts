import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import bcrypt from 'bcryptjs';
import { HopError } from '../../src/domain/errors.js';
import { peerImportDepsOf } from '../../src/main/peer-import-deps.js';
import { authenticateKey } from '../../src/services/keys/authenticate.js';
import {
  importPeerLinks,
  type PeerImportDeps,
} from '../../src/services/links/peer-import/import-peer-links.js';
import type {
  PeerImportOutcome,
  PeerImportSummary,
} from '../../src/services/links/peer-import/peer-import-outcome.js';
import type { PeerLink, PeerRow } from '../../src/services/links/peer-import/peer-link.js';
import type { Principal } from '../../src/domain/principal.js';
import { requestOnHost } from '../support/request-on-host.js';
import { readSettled } from '../support/settled-events.js';
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
    statusCode: 302,
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

  const run = async (
    rows: readonly PeerRow[],
    options: { dryRun?: boolean; principal?: Principal; deps?: PeerImportDeps } = {},
  ) => {
    const outcomes: PeerImportOutcome[] = [];
    const summary: PeerImportSummary = await importPeerLinks(
      options.deps ?? peerImportDepsOf(server.runtime),
      options.principal ?? admin,
      rowsOf(rows),
      { dryRun: options.dryRun ?? false, onOutcome: (outcome) => outcomes.push(outcome) },
    );
    return { summary, outcomes };
  };
  const kinds = (outcomes: readonly PeerImportOutcome[]) => outcomes.map((o) => o.kind);
  const details = (outcomes: readonly PeerImportOutcome[]) =>
    outcomes.map((o) => (o.kind === 'rejected' ? o.detail : o.kind));
  const clicksOf = async (code: string) =>
    (await server.request('GET', `/v1/links/${encodeURIComponent(code)}`)).json.clicks as number;

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

  test('codes with "." and "~", and codes differing only in case, are kept apart', async () => {
    const { outcomes } = await run([
      peerLink({ code: 'Q', destination: 'https://example.com/upper' }),
      peerLink({ code: 'q', destination: 'https://example.com/lower' }),
      peerLink({ code: 'v1.2~b', destination: 'https://example.com/dotted' }),
    ]);
    assert.deepEqual(kinds(outcomes), ['imported', 'imported', 'imported']);
    for (const [path, location] of [
      ['/Q', 'https://example.com/upper'],
      ['/q', 'https://example.com/lower'],
      ['/v1.2~b', 'https://example.com/dotted'],
      ['/v1.2~b/', 'https://example.com/dotted'],
    ] as const) {
      const response = await server.request('GET', path, { key: null });
      assert.equal(response.headers.get('location'), location, path);
    }
    // `+`: the link's preview page, for kept codes as for any.
    const preview = await server.request('GET', '/v1.2~b+', {
      key: null,
      headers: { accept: 'text/html' },
    });
    assert.equal(preview.status, 200);
    assert.match(preview.text, /example\.com\/dotted/);
    // New aliases keep SPEC §2's rule.
    const alias = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/x', alias: 'a.b' },
    });
    assert.equal(alias.status, 422);
  });

  test('a re-run writes nothing twice: every row unchanged, counts not added again', async () => {
    const rows = [
      peerLink({
        source: 'keyword r1',
        code: 'r1',
        destination: 'https://example.com/r1',
        clicks: 5,
      }),
      peerLink({
        source: 'keyword r2',
        code: 'r2',
        destination: 'https://example.com/r2',
        clicks: 7,
      }),
    ];
    const first = await run(rows);
    assert.deepEqual(kinds(first.outcomes), ['imported', 'imported']);
    assert.deepEqual(first.summary, {
      imported: 2,
      unchanged: 0,
      rejected: 0,
      clicks: 12,
      stopped: null,
    });
    const second = await run(rows);
    assert.deepEqual(second.outcomes, [
      { kind: 'unchanged', source: 'keyword r1', code: 'r1' },
      { kind: 'unchanged', source: 'keyword r2', code: 'r2' },
    ]);
    assert.deepEqual(second.summary, {
      imported: 0,
      unchanged: 2,
      rejected: 0,
      clicks: 0,
      stopped: null,
    });
    assert.equal(await clicksOf('r1'), 5);
    assert.equal(await clicksOf('r2'), 7);
    const listed = await server.request('GET', '/v1/links?q=example.com/r&limit=100');
    assert.equal(listed.json.items.length, 2);
  });

  test('a run stopped between a link and its count loses nothing: the re-run keeps it', async () => {
    const real = peerImportDepsOf(server.runtime);
    const failing: PeerImportDeps = {
      ...real,
      startingCounts: {
        keepStartingCounts: () =>
          Promise.reject(
            new HopError('store-unavailable', 'clicks.db did not answer', { retryable: true }),
          ),
      },
    };
    const rows = [
      peerLink({
        source: 'line 9',
        code: 'crash1',
        destination: 'https://example.com/c',
        clicks: 99,
      }),
    ];
    const stopped = await run(rows, { deps: failing });
    // The link is in; its count is not, and the import says it stopped there.
    assert.deepEqual(kinds(stopped.outcomes), ['imported', 'failed']);
    assert.equal(stopped.summary.stopped?.source, 'line 9');
    assert.equal(await clicksOf('crash1'), 0);
    assert.equal(stopped.summary.clicks, 0, 'the summary counts only the clicks written');
    const again = await run(rows);
    assert.deepEqual(kinds(again.outcomes), ['unchanged']);
    assert.equal(await clicksOf('crash1'), 99);
  });

  test('collisions are reported at their row, never overwritten', async () => {
    const taken = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/theirs', alias: 'taken1' },
    });
    assert.equal(taken.status, 201);
    const gone = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/gone', alias: 'gone1' },
    });
    await server.request('DELETE', `/v1/links/${gone.json.id as string}`);
    const { outcomes, summary } = await run([
      peerLink({ source: 'a', code: 'taken1', destination: 'https://example.com/mine' }),
      peerLink({ source: 'b', code: 'gone1' }),
      peerLink({ source: 'c', code: 'API' }),
      peerLink({ source: 'd', code: 'rest' }),
      peerLink({ source: 'e', code: 'yourls-api.php' }),
      peerLink({ source: 'f', code: 'robots.txt' }),
      peerLink({ source: 'g', code: '01HZX3J5Q8W6V2T9R4N7M0K1PB' }),
      peerLink({ source: 'h', code: 'a/b' }),
      peerLink({ source: 'i', code: '..' }),
      peerLink({ source: 'j', code: 'caf\u00e9' }),
      peerLink({ source: 'k', code: 'dup1', destination: 'https://example.com/first' }),
      peerLink({ source: 'l', code: 'dup1', destination: 'https://example.com/second' }),
      { source: 'line 13', problem: 'The row has no long URL.' },
      peerLink({ source: 'n', code: 'badurl', destination: 'javascript:alert(1)' }),
      peerLink({ source: 'o', code: 'badtag', tags: ['two words'] }),
    ]);
    assert.deepEqual(kinds(outcomes), [
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'imported',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    const said = details(outcomes);
    assert.match(
      said[0]!,
      new RegExp(`already held by another link \\(link ${taken.json.id as string}\\)`),
    );
    assert.match(said[1]!, /deleted link/);
    for (const i of [2, 3, 4, 5]) assert.match(said[i]!, /reserved by hop/);
    assert.match(said[6]!, /shape of a link id/);
    assert.match(said[7]!, /1 to 64 letters, digits/);
    assert.match(said[8]!, /remove it from a path/);
    assert.match(said[9]!, /1 to 64 letters, digits/);
    assert.match(said[11]!, /taken by an earlier row \(k\)/);
    assert.equal(said[12], 'The row has no long URL.');
    assert.equal(outcomes[12]!.kind === 'rejected' && outcomes[12]!.code, null);
    assert.match(said[13]!, /destination is refused/);
    assert.match(said[14]!, /tag "two words"/);
    assert.equal(summary.rejected, 14);
    const theirs = await server.request('GET', '/taken1', { key: null });
    assert.equal(theirs.headers.get('location'), 'https://example.com/theirs');
    assert.equal((await server.request('GET', '/gone1', { key: null })).status, 404);
  });

  test('a dry run reports what a run would, and writes nothing', async () => {
    const existing = await run([peerLink({ code: 'dry0', destination: 'https://example.com/d0' })]);
    assert.deepEqual(kinds(existing.outcomes), ['imported']);
    const rows = [
      peerLink({ code: 'dry0', destination: 'https://example.com/d0', clicks: 3 }),
      peerLink({ code: 'dry1', destination: 'https://example.com/d1', clicks: 4 }),
      peerLink({ code: 'dry1', destination: 'https://example.com/d1' }),
      peerLink({ code: 'dry2', domain: 'dry.peer.test' }),
      peerLink({ code: 'admin' }),
    ];
    const dry = await run(rows, { dryRun: true });
    assert.deepEqual(kinds(dry.outcomes), [
      'unchanged',
      'imported',
      'rejected',
      'imported',
      'rejected',
    ]);
    assert.equal(dry.outcomes[1]!.kind === 'imported' && dry.outcomes[1]!.link, null);
    assert.equal((await server.request('GET', '/dry1', { key: null })).status, 404);
    assert.equal(await clicksOf('dry0'), 0);
    assert.equal((await server.request('GET', '/v1/domains/dry.peer.test')).status, 404);
  });

  test('kept fields: title, tags, creation time, a past expiry, the disabled state', async () => {
    const now = server.clock.now();
    const { outcomes } = await run([
      peerLink({
        code: 'kept1',
        destination: 'https://example.com/kept',
        title: ` ${'T'.repeat(250)}\u0007 `,
        tags: ['games', 'tech', 'games'],
        expiresAt: now + 86_400_000,
      }),
      peerLink({ code: 'old1', expiresAt: now - 1000, clicks: 2 }),
      peerLink({ code: 'off1', state: 'disabled', clicks: 1 }),
      peerLink({ code: 'nodate', createdAt: null }),
    ]);
    assert.deepEqual(kinds(outcomes), ['imported', 'imported', 'imported', 'imported']);
    const kept = (await server.request('GET', '/v1/links/kept1')).json;
    assert.equal(kept.title.length, 200);
    assert.ok((kept.title as string).endsWith('…'));
    assert.deepEqual(kept.tags, ['games', 'tech']);
    assert.equal(kept.custom, true);
    assert.equal(kept.state, 'active');
    assert.equal(kept.created_at, new Date(CREATED).toISOString());
    assert.equal(kept.expires_at, new Date(now + 86_400_000).toISOString());
    const old = (await server.request('GET', '/v1/links/old1')).json;
    assert.equal(old.state, 'expired');
    assert.equal(old.clicks, 2);
    assert.equal((await server.request('GET', '/old1', { key: null })).status, 404);
    assert.equal((await server.request('GET', '/v1/links/off1')).json.state, 'disabled');
    assert.equal((await server.request('GET', '/off1', { key: null })).status, 404);
    const undated = (await server.request('GET', '/v1/links/nodate')).json;
    assert.equal(undated.created_at, new Date(now).toISOString());
  });

  test('an imported link is announced as a created one is: link.created in the outbox', async () => {
    const log = server.runtime.store.linkEvents;
    const position = await log.latest();
    const { outcomes } = await run([peerLink({ code: 'told1' })]);
    const id = outcomes[0]!.kind === 'imported' ? outcomes[0]!.link?.id : undefined;
    const events = await readSettled(log, position, 1);
    assert.deepEqual(
      events.map((event) => [event.type, event.link.id]),
      [['link.created', id]],
    );
    // It occurred when hop wrote it, not years ago: retention keeps it for its readers.
    assert.equal(events[0]!.occurredAt, server.clock.now());
  });

  test("a peer's domain is added for an admin's import, reported for another key's", async () => {
    const { outcomes } = await run([
      peerLink({ code: 'dom1', domain: 'Go.Peer.Test', destination: 'https://example.com/dom' }),
    ]);
    assert.deepEqual(kinds(outcomes), ['imported']);
    assert.equal((await server.request('GET', '/v1/domains/go.peer.test')).status, 200);
    const served = await requestOnHost(server.url, 'GET', '/dom1', 'go.peer.test');
    assert.equal(served.location, 'https://example.com/dom');
    assert.equal((await server.request('GET', '/dom1', { key: null })).status, 404);

    const alice = await authenticateKey(server.runtime.keyService, await server.ownerKey('alice'));
    const mine = await run(
      [
        peerLink({ code: 'dom2', domain: 'other.peer.test' }),
        peerLink({ code: 'alice1', domain: null, clicks: 3 }),
      ],
      { principal: alice },
    );
    assert.deepEqual(kinds(mine.outcomes), ['rejected', 'imported']);
    assert.match(details(mine.outcomes)[0]!, /hop has no domain "other\.peer\.test"/);
    const owned = await server.request('GET', '/v1/links/alice1');
    assert.equal(owned.json.owner, 'alice');
  });

  test("Kutt's bcrypt hashes keep working at the password gate; a wrong password is refused", async () => {
    const hash = bcrypt.hashSync('kutt secret', 10);
    const rows = ['$2a$', '$2b$', '$2y$'].map((prefix, i) =>
      peerLink({
        code: `pw${i}`,
        destination: 'https://example.com/locked',
        passwordHash: prefix + hash.slice(4),
      }),
    );
    const { outcomes } = await run([
      ...rows,
      peerLink({ code: 'pwslow', passwordHash: bcrypt.hashSync('x', 4).replace('$04$', '$13$') }),
      peerLink({ code: 'pwbad', passwordHash: 'plain text' }),
    ]);
    assert.deepEqual(kinds(outcomes), ['imported', 'imported', 'imported', 'rejected', 'rejected']);
    for (const code of ['pw0', 'pw1', 'pw2']) {
      const form = await server.request('GET', `/${code}`, { key: null });
      assert.equal(form.status, 200, code);
      assert.match(form.headers.get('content-type') ?? '', /text\/html/);
      const right = await server.request('GET', `/${code}`, {
        key: null,
        headers: { 'x-link-password': 'kutt secret' },
      });
      assert.equal(right.status, 302, code);
      assert.equal(right.headers.get('location'), 'https://example.com/locked');
    }
    const wrong = await server.request('GET', '/pw1', {
      key: null,
      headers: { 'x-link-password': 'not the secret' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('location'), null);
    const posted = await server.request('POST', '/pw0', {
      key: null,
      rawBody: 'password=kutt+secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(posted.status, 302);
    assert.equal(posted.headers.get('location'), 'https://example.com/locked');
    // The hash is never shown: the link says only that it has a password.
    const shown = (await server.request('GET', '/v1/links/pw0')).text;
    assert.equal(shown.includes(hash.slice(7)), false);
  });
});
