import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { LinkRepository } from '../../src/ports/link-repository.js';
import { BASE_MS, makeLink } from '../contract/store-factories.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const OWNER = 'paging-alice';
const LINKS = 260;

/**
 * The peers' numbered lists and totals (Shlink, Kutt, YOURLS) read one page and a count
 * from the store, never the caller's whole list: the real store's rows handed back to
 * the services are counted, and each answer is checked against the links seeded.
 */
describe("peers' pages and totals read only the page (issue 24)", () => {
  let server: TestServer;
  let aliceKey: string;
  /** Alice's links, newest first, as hop lists them. */
  let alices: Link[];
  let rowsRead = 0;

  before(async () => {
    server = await startTestServer();
    aliceKey = await server.ownerKey(OWNER);
    await server.ownerKey('paging-bob');
    const seeded: Link[] = [];
    for (let i = 0; i < LINKS; i++) {
      seeded.push(
        makeLink({
          owner: OWNER,
          code: `pg-${String(i).padStart(3, '0')}`,
          createdAt: BASE_MS + i * 1000,
          tags: i % 4 === 0 ? ['quarter'] : [],
        }),
      );
    }
    // Bob's links, tagged alike, must never be counted in Alice's answers.
    const bobs = Array.from({ length: 30 }, (_, i) =>
      makeLink({ owner: 'paging-bob', code: `bob-${i}`, tags: ['quarter'] }),
    );
    const links: LinkRepository = server.runtime.appDeps.linkService.links;
    assert.equal(await links.importLinks([...seeded, ...bobs]), LINKS + 30);
    alices = [...seeded].reverse();
    // Starting counts (ADR 0136): link i has i people's clicks; Bob's 1000 each.
    await server.runtime.appDeps.analytics.clicks.keepStartingCounts([
      ...seeded.map((link, i) => ({ linkId: link.id, clicks: i })),
      ...bobs.map((link) => ({ linkId: link.id, clicks: 1000 })),
    ]);
    const listLinks = links.listLinks.bind(links);
    links.listLinks = async (query) => {
      const rows = await listLinks(query);
      rowsRead += rows.length;
      return rows;
    };
  });

  after(() => server.close());

  /** `send`'s answer, and how many link rows the store handed back for it. */
  const reading = async <T>(send: () => Promise<T>): Promise<{ answer: T; rows: number }> => {
    rowsRead = 0;
    const answer = await send();
    return { answer, rows: rowsRead };
  };
  const shlink = (path: string) =>
    server.request('GET', `/rest/v3${path}`, { key: null, headers: { 'x-api-key': aliceKey } });
  const codesOf = (links: readonly Link[]) => links.map((link) => link.code);

  test('Shlink: a page far in, newest first, with the total of every page', async () => {
    const { answer, rows } = await reading(() => shlink('/short-urls?itemsPerPage=5&page=40'));
    assert.equal(answer.status, 200, answer.text);
    const { data, pagination } = answer.json.shortUrls;
    assert.deepEqual(
      data.map((url: { shortCode: string }) => url.shortCode),
      codesOf(alices.slice(195, 200)),
    );
    assert.deepEqual(pagination, {
      currentPage: 40,
      pagesCount: 52,
      itemsPerPage: 5,
      itemsInCurrentPage: 5,
      totalItems: LINKS,
    });
    assert.equal(rows, 5);
    const url = data[0] as { visitsSummary: { nonBots: number } };
    assert.equal(url.visitsSummary.nonBots, LINKS - 1 - 195);
  });

  test('Shlink: a tag filter totals only the matching links, in the order asked', async () => {
    const { answer, rows } = await reading(() =>
      shlink('/short-urls?tags[]=quarter&orderBy=nonBotVisits-ASC&itemsPerPage=10&page=3'),
    );
    assert.equal(answer.status, 200, answer.text);
    const quarter = alices.filter((link) => link.tags.includes('quarter')).reverse();
    const { data, pagination } = answer.json.shortUrls;
    assert.deepEqual(
      data.map((url: { shortCode: string }) => url.shortCode),
      codesOf(quarter.slice(20, 30)),
    );
    assert.equal(pagination.totalItems, LINKS / 4);
    assert.equal(pagination.pagesCount, 7);
    assert.equal(rows, 10);
  });

  test('Shlink: a page past the end is empty and reads no link; the visits overview none', async () => {
    const past = await reading(() => shlink('/short-urls?itemsPerPage=50&page=99'));
    assert.deepEqual(past.answer.json.shortUrls.data, []);
    assert.equal(past.answer.json.shortUrls.pagination.totalItems, LINKS);
    assert.equal(past.rows, 0);
    const overview = await reading(() => shlink('/visits'));
    assert.equal(overview.answer.status, 200, overview.answer.text);
    const people = (LINKS * (LINKS - 1)) / 2;
    assert.deepEqual(overview.answer.json.visits.nonOrphanVisits, {
      total: people,
      nonBots: people,
      bots: 0,
    });
    assert.equal(overview.rows, 0);
    const tags = await reading(() => shlink('/tags/stats?orderBy=visits-DESC'));
    assert.equal(tags.answer.status, 200, tags.answer.text);
    const quarterClicks = alices.reduce(
      (sum, link, i) => sum + (link.tags.includes('quarter') ? LINKS - 1 - i : 0),
      0,
    );
    assert.deepEqual(tags.answer.json.tags.data, [
      {
        tag: 'quarter',
        shortUrlsCount: LINKS / 4,
        visitsSummary: { total: quarterClicks, nonBots: quarterClicks, bots: 0 },
      },
    ]);
    assert.equal(tags.rows, 0);
  });

  test('Kutt: skip and limit read one page; total counts every link of the caller', async () => {
    const { answer, rows } = await reading(() =>
      server.request('GET', '/api/v2/links?skip=250&limit=20', {
        key: null,
        headers: { 'x-api-key': aliceKey },
      }),
    );
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.total, LINKS);
    assert.deepEqual(
      answer.json.data.map((link: { address: string }) => link.address),
      codesOf(alices.slice(250)),
    );
    assert.equal(rows, 10);
  });

  test('YOURLS: stats reads only the links shown; db-stats counts and sums, reading none', async () => {
    const yourls = (params: Record<string, string>) =>
      server.request(
        'GET',
        `/yourls-api.php?${new URLSearchParams({ ...params, format: 'json', signature: aliceKey }).toString()}`,
        { key: null },
      );
    const totals = { total_links: String(LINKS), total_clicks: String((LINKS * (LINKS - 1)) / 2) };
    const top = await reading(() =>
      yourls({ action: 'stats', filter: 'top', limit: '3', start: '2' }),
    );
    assert.equal(top.answer.status, 200, top.answer.text);
    const shown = Object.values(top.answer.json.links as Record<string, { clicks: string }>);
    assert.deepEqual(
      shown.map((link) => link.clicks),
      ['257', '256', '255'],
    );
    assert.deepEqual(
      Object.fromEntries(Object.entries(top.answer.json.stats).map(([k, v]) => [k, String(v)])),
      totals,
    );
    assert.equal(top.rows, 3);
    const random = await reading(() => yourls({ action: 'stats', filter: 'rand', limit: '4' }));
    const drawn = Object.values(random.answer.json.links as Record<string, { shorturl: string }>);
    assert.equal(drawn.length, 4);
    assert.equal(new Set(drawn.map((link) => link.shorturl)).size, 4);
    assert.equal(random.rows, 4);
    const db = await reading(() => yourls({ action: 'db-stats' }));
    assert.equal(db.answer.status, 200, db.answer.text);
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(db.answer.json['db-stats']).map(([k, v]) => [k, String(v)]),
      ),
      totals,
    );
    assert.equal(db.rows, 0);
  });
});
