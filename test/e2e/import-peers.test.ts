import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import bcrypt from 'bcryptjs';
import Database from 'better-sqlite3';
import { readYourlsDatabase } from '../../src/adapters/peer-sources/yourls-database.js';
import { isPeerRowProblem, type PeerRow } from '../../src/domain/peer-link.js';
import { runHop, type HopRun } from '../support/hop-process.js';
import {
  queryPostgres,
  requirePostgres,
  testSchema,
  POSTGRES_URL,
} from '../support/require-postgres.js';
import { requireMariadb, testMariadbDatabase } from '../support/require-mariadb.js';
import { requestOnHost } from '../support/request-on-host.js';
import { tempDataDir } from '../support/temp-data.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';

/**
 * Issue 24: `hop import shlink|yourls|kutt` from real-shaped sources. After an import every
 * code redirects where it did on the peer and its click total carries over; a re-run
 * creates nothing twice; --dry-run writes nothing; a reserved or taken code is reported at
 * its row; a bad source is one error line and exit 2.
 */

const TAKEN = 'taken';

function hopEnv(dataDir: string): Record<string, string> {
  return { HOP_DATA_DIR: dataDir, HOP_PUBLIC_URL: TEST_PUBLIC_URL, HOP_LOG_LEVEL: 'silent' };
}

/** A fresh data dir holding one link on the code every source also has: `taken`. */
async function dataDirWithTakenCode(t: TestContext): Promise<string> {
  const dataDir = tempDataDir(t, 'hop-import-');
  const created = await runHop(
    ['links', 'create', 'https://example.org/already-here', '--alias', TAKEN],
    hopEnv(dataDir),
  );
  assert.equal(created.status, 0, created.stderr);
  return dataDir;
}

/** What a source's import must report: totals and the rows it refuses, by their place. */
interface Expected {
  readonly imported: number;
  readonly clicks: number;
  readonly rejected: readonly RegExp[];
}

/** Runs an import three ways: --dry-run, for real, again; checks what each one says. */
async function importThrice(args: readonly string[], dataDir: string, expected: Expected) {
  const env = hopEnv(dataDir);
  const totals = `${expected.imported} links with ${expected.clicks} clicks, unchanged 0, rejected ${expected.rejected.length}`;
  const dry = await runHop([...args, '--dry-run'], env);
  assertRun(dry, expected.rejected, `dry run, nothing written: would import ${totals}`);
  // Had the dry run written anything, these would be unchanged, not imported.
  const real = await runHop(args, env);
  assertRun(real, expected.rejected, `imported ${totals}`);
  const again = await runHop(args, env);
  assertRun(
    again,
    expected.rejected,
    `imported 0 links with 0 clicks, unchanged ${expected.imported}, rejected ${expected.rejected.length}`,
  );
}

function assertRun(run: HopRun, rejected: readonly RegExp[], summary: string): void {
  const context = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.status, rejected.length > 0 ? 1 : 0, context);
  assert.match(run.stdout, new RegExp(`^${escape(summary)}, in \\d+\\.\\d s\\n$`), context);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, rejected.length, context);
  rejected.forEach((pattern, index) => assert.match(lines[index]!, pattern, context));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The redirect of `code` (on `host`, else the default domain): its status and Location. */
async function redirectOf(server: TestServer, code: string, host?: string) {
  const response = await requestOnHost(
    server.url,
    'GET',
    `/${encodeURIComponent(code)}`,
    host ?? new URL(TEST_PUBLIC_URL).host,
  );
  return { status: response.status, location: response.location };
}

async function linkJson(server: TestServer, code: string, domain?: string) {
  const query = domain === undefined ? '' : `?domain=${domain}`;
  const response = await server.request('GET', `/v1/links/${encodeURIComponent(code)}${query}`);
  assert.equal(response.status, 200, response.text);
  return response.json;
}

/**
 * Serves the imported data dir and checks each code's redirect, with the status the peer
 * redirected with (YOURLS 301, Shlink and Kutt 302), and its click total.
 */
async function assertServed(
  t: TestContext,
  dataDir: string,
  links: readonly { code: string; to: string; clicks: number; host?: string }[],
  status: 301 | 302 = 302,
): Promise<TestServer> {
  const server = await startTestServer({}, { dataDir });
  t.after(() => server.close());
  for (const link of links) {
    assert.deepEqual(
      await redirectOf(server, link.code, link.host),
      { status, location: link.to },
      `redirect of ${link.code}`,
    );
    const json = await linkJson(server, link.code, link.host);
    assert.equal(json.clicks, link.clicks, `clicks of ${link.code}`);
  }
  return server;
}

describe('hop import yourls', () => {
  /** YOURLS's own table (includes/functions-install.php), under a prefix of the test's. */
  async function yourlsDatabase(t: TestContext, prefix: string) {
    const { url, connection } = await testMariadbDatabase(t, 'hop_yourls');
    await connection.query(`CREATE TABLE \`${prefix}url\` (
      \`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
      \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      \`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL,
      \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(),
      \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,
      \`clicks\` int(10) unsigned NOT NULL,
      PRIMARY KEY (\`keyword\`), KEY \`ip\` (\`ip\`), KEY \`timestamp\` (\`timestamp\`),
      KEY \`url_idx\` (\`url\`(30))
    ) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
    return { url, connection };
  }

  const ROWS: readonly [string, string, string | null, string, number][] = [
    ['1', 'https://example.com/one', null, '2015-03-04 05:06:07', 5],
    ['a', 'https://example.com/lower-a', 'Lower a', '2016-01-01 00:00:00', 7],
    ['A', 'https://example.com/upper-a', null, '2016-01-02 00:00:00', 0],
    ['ab', 'https://example.com/ab', 'Two characters', '2017-06-07 08:09:10', 42],
    ['aB', 'https://example.com/aB', null, '2017-06-07 08:09:11', 1],
    ['api', 'https://example.com/api', null, '2018-01-01 00:00:00', 3],
    [TAKEN, 'https://example.com/taken', null, '2018-01-01 00:00:00', 4],
    ['x', 'https://example.com/x', null, '2019-01-01 00:00:00', 1000],
  ];

  test('keeps 1- and 2-character, case-differing keywords, their clicks and times', async (t) => {
    if (!(await requireMariadb(t))) return;
    const { url, connection } = await yourlsDatabase(t, 'yo_');
    await connection.query(
      'INSERT INTO yo_url (keyword, url, title, `timestamp`, ip, clicks) VALUES ?',
      [
        ROWS.map(([keyword, to, title, at, clicks]) => [
          keyword,
          to,
          title,
          at,
          '127.0.0.1',
          clicks,
        ]),
      ],
    );
    const dataDir = await dataDirWithTakenCode(t);
    await importThrice(['import', 'yourls', '--from', url, '--table-prefix', 'yo_'], dataDir, {
      imported: 6,
      clicks: 5 + 7 + 0 + 42 + 1 + 1000,
      // In keyword order (utf8mb4_bin: upper case first).
      rejected: [
        /^keyword api: rejected: .*"api" is reserved/,
        /^keyword taken: rejected: .*"taken" is already held/,
      ],
    });
    const server = await assertServed(
      t,
      dataDir,
      ROWS.filter(([keyword]) => keyword !== 'api' && keyword !== TAKEN).map(
        ([code, to, , , clicks]) => ({ code, to, clicks }),
      ),
      301,
    );
    const ab = await linkJson(server, 'ab');
    assert.equal(ab.title, 'Two characters');
    assert.equal(ab.created_at, '2017-06-07T08:09:10.000Z');
    assert.deepEqual(await redirectOf(server, TAKEN), {
      status: 302,
      location: 'https://example.org/already-here',
    });
  });

  test('the reader pages through the table in keyword order, reading every row once', async (t) => {
    if (!(await requireMariadb(t))) return;
    const { url, connection } = await yourlsDatabase(t, 'yourls_');
    await connection.query(
      'INSERT INTO yourls_url (keyword, url, title, `timestamp`, ip, clicks) VALUES ?',
      [ROWS.map(([keyword, to, title, at, clicks]) => [keyword, to, title, at, '::1', clicks])],
    );
    const rows: PeerRow[] = [];
    const source = await readYourlsDatabase(url, { tablePrefix: 'yourls_', pageSize: 3 });
    for await (const row of source) rows.push(row);
    assert.deepEqual(
      rows.map((row) => (isPeerRowProblem(row) ? row.problem : row.code)),
      ['1', 'A', 'a', 'aB', 'ab', 'api', TAKEN, 'x'],
    );
    assert.deepEqual(source.progress(), { done: 8, total: 8 });
  });
});

/** Kutt's tables as its knex models make them (server/models/*.model.js). */
const KUTT_TABLES = {
  postgres: `
    CREATE TABLE users (id serial PRIMARY KEY, email varchar(255) NOT NULL);
    CREATE TABLE domains (id serial PRIMARY KEY, banned boolean NOT NULL DEFAULT false,
      banned_by_id integer REFERENCES users(id), address varchar(255) UNIQUE NOT NULL,
      homepage varchar(255), user_id integer REFERENCES users(id) ON DELETE SET NULL,
      uuid uuid NOT NULL DEFAULT gen_random_uuid(),
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE links (id serial PRIMARY KEY, address varchar(255) NOT NULL,
      description varchar(255), banned boolean NOT NULL DEFAULT false,
      banned_by_id integer REFERENCES users(id), domain_id integer REFERENCES domains(id),
      password varchar(255), expire_in timestamptz, target varchar(2040) NOT NULL,
      user_id integer REFERENCES users(id) ON DELETE CASCADE,
      visit_count integer NOT NULL DEFAULT 0, uuid uuid NOT NULL DEFAULT gen_random_uuid(),
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());`,
  sqlite: `
    CREATE TABLE users (id integer PRIMARY KEY AUTOINCREMENT, email varchar(255) NOT NULL);
    CREATE TABLE domains (id integer PRIMARY KEY AUTOINCREMENT, banned boolean NOT NULL DEFAULT '0',
      banned_by_id integer, address varchar(255) NOT NULL UNIQUE, homepage varchar(255),
      user_id integer, uuid char(36) NOT NULL DEFAULT (lower(hex(randomblob(16)))),
      created_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
      updated_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP);
    CREATE TABLE links (id integer PRIMARY KEY AUTOINCREMENT, address varchar(255) NOT NULL,
      description varchar(255), banned boolean NOT NULL DEFAULT '0', banned_by_id integer,
      domain_id integer REFERENCES domains(id), password varchar(255), expire_in datetime,
      target varchar(2040) NOT NULL, user_id integer, visit_count integer NOT NULL DEFAULT '0',
      uuid char(36) NOT NULL DEFAULT (lower(hex(randomblob(16)))),
      created_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
      updated_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP);`,
} as const;

const KUTT_PASSWORD = 'kutt-secret-1';
const KUTT_DOMAIN = 'k.example';

interface KuttLink {
  readonly address: string;
  readonly target: string;
  readonly description?: string;
  readonly banned?: boolean;
  readonly onDomain?: boolean;
  readonly password?: string;
  /** Kutt's UTC text, as it writes it into SQLite ('YYYY-MM-DD hh:mm:ss'). */
  readonly expireIn?: string;
  readonly visits: number;
  readonly createdAt: string;
}

function kuttLinks(): KuttLink[] {
  return [
    {
      address: 'kt1',
      target: 'https://example.com/kt1',
      description: 'Kutt one',
      visits: 9,
      createdAt: '2023-05-06 07:08:09',
    },
    {
      address: 'pw',
      target: 'https://example.com/secret',
      password: bcrypt.hashSync(KUTT_PASSWORD, 4),
      visits: 2,
      createdAt: '2023-05-06 07:08:10',
    },
    {
      address: 'ban',
      target: 'https://example.com/banned',
      banned: true,
      visits: 1,
      createdAt: '2023-05-06 07:08:11',
    },
    {
      address: 'old',
      target: 'https://example.com/old',
      expireIn: '2020-01-01 00:00:00',
      visits: 3,
      createdAt: '2019-05-06 07:08:12',
    },
    {
      address: 'dm',
      target: 'https://example.com/on-domain',
      onDomain: true,
      visits: 11,
      createdAt: '2023-05-06 07:08:13',
    },
    {
      address: 'ab',
      target: 'https://example.com/two',
      visits: 0,
      createdAt: '2023-05-06 07:08:14',
    },
    {
      address: 'admin',
      target: 'https://example.com/admin',
      visits: 5,
      createdAt: '2023-05-06 07:08:15',
    },
    {
      address: TAKEN,
      target: 'https://example.com/k-taken',
      visits: 6,
      createdAt: '2023-05-06 07:08:16',
    },
  ];
}

/** The values of one links row, in the INSERT's column order. */
function kuttValues(link: KuttLink, domainId: number, asSqlite: boolean): unknown[] {
  const flag = (value: boolean) => (asSqlite ? (value ? 1 : 0) : value);
  const time = (text: string | undefined) =>
    text === undefined ? null : asSqlite ? text : `${text}Z`;
  return [
    link.address,
    link.target,
    link.description ?? null,
    flag(link.banned ?? false),
    link.onDomain === true ? domainId : null,
    link.password ?? null,
    time(link.expireIn),
    link.visits,
    time(link.createdAt),
  ];
}

const KUTT_INSERT = `INSERT INTO links (address, target, description, banned, domain_id, password,
  expire_in, visit_count, created_at) VALUES `;

async function assertKuttImported(t: TestContext, dataDir: string, from: string) {
  await importThrice(['import', 'kutt', '--from', from], dataDir, {
    imported: 6,
    clicks: 9 + 2 + 1 + 3 + 11 + 0,
    rejected: [
      /^link 7 \(admin\): rejected: .*"admin" is reserved/,
      /^link 8 \(taken\): rejected: .*"taken" is already held/,
    ],
  });
  const server = await assertServed(t, dataDir, [
    { code: 'kt1', to: 'https://example.com/kt1', clicks: 9 },
    { code: 'dm', to: 'https://example.com/on-domain', clicks: 11, host: KUTT_DOMAIN },
    { code: 'ab', to: 'https://example.com/two', clicks: 0 },
  ]);
  const kt1 = await linkJson(server, 'kt1');
  assert.equal(kt1.title, 'Kutt one');
  assert.equal(kt1.created_at, '2023-05-06T07:08:09.000Z');
  const banned = await linkJson(server, 'ban');
  assert.equal(banned.state, 'disabled');
  assert.equal(banned.clicks, 1);
  const old = await linkJson(server, 'old');
  assert.equal(old.expires_at, '2020-01-01T00:00:00.000Z');
  assert.equal(old.state, 'expired');
  // The bcrypt hash keeps working: the form first, then the right password through.
  const pw = await linkJson(server, 'pw');
  assert.equal(pw.password_protected, true);
  assert.equal(pw.clicks, 2);
  const host = new URL(TEST_PUBLIC_URL).host;
  assert.equal((await requestOnHost(server.url, 'GET', '/pw', host)).status, 200);
  const wrong = await requestOnHost(server.url, 'GET', '/pw', host, {
    'x-link-password': 'nope-nope',
  });
  assert.equal(wrong.status, 401);
  const right = await requestOnHost(server.url, 'GET', '/pw', host, {
    'x-link-password': KUTT_PASSWORD,
  });
  assert.equal(right.status, 302);
  assert.equal(right.location, 'https://example.com/secret');
}

describe('hop import kutt', () => {
  test('from PostgreSQL: codes, totals, a password, a banned, an expired and a domain link', async (t) => {
    if (!(await requirePostgres(t))) return;
    const schema = testSchema(t);
    await queryPostgres('public', `CREATE SCHEMA ${schema}`);
    await queryPostgres(schema, KUTT_TABLES.postgres);
    const [domain] = await queryPostgres<{ id: number }>(
      schema,
      `INSERT INTO domains (address) VALUES ($1) RETURNING id`,
      [KUTT_DOMAIN],
    );
    const links = kuttLinks();
    const values = links.map((link) => kuttValues(link, domain!.id, false));
    const placeholders = values.map(
      (row, r) => `(${row.map((_, c) => `$${r * row.length + c + 1}`).join(', ')})`,
    );
    await queryPostgres(schema, `${KUTT_INSERT}${placeholders.join(', ')}`, values.flat());
    const from = `${POSTGRES_URL}?options=-c%20search_path%3D${schema}`;
    await assertKuttImported(t, await dataDirWithTakenCode(t), from);
  });

  test("from SQLite: the same links, read from Kutt's file", async (t) => {
    const dataDir = await dataDirWithTakenCode(t);
    const file = join(tempDataDir(t, 'kutt-sqlite-'), 'data');
    const db = new Database(file);
    db.exec(KUTT_TABLES.sqlite);
    const domainId = Number(
      db.prepare('INSERT INTO domains (address) VALUES (?)').run(KUTT_DOMAIN).lastInsertRowid,
    );
    const insert = db.prepare(`${KUTT_INSERT}(?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const link of kuttLinks()) insert.run(...kuttValues(link, domainId, true));
    db.close();
    await assertKuttImported(t, dataDir, `sqlite:${file}`);
  });
});

describe('hop import shlink', () => {
  test("the web client's export and the importer's CSV: tags, titles, a domain, visits", async (t) => {
    const dataDir = await dataDirWithTakenCode(t);
    const files = tempDataDir(t, 'shlink-csv-');
    const exported = join(files, 'short_urls.csv');
    writeFileSync(
      exported,
      [
        'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits',
        '2024-01-02T03:04:05+00:00,,sh1,https://s.example/sh1,https://example.com/sh1,Shlink one,docs|launch,12',
        '2024-01-03T03:04:05+01:00,s.example,sh2,https://s.example/sh2,https://example.com/sh2,"Title, with comma",,3',
        '2024-01-04T00:00:00+00:00,,api,https://s.example/api,https://example.com/api,,,1',
        '2024-01-05T00:00:00+00:00,,taken,https://s.example/taken,https://example.com/taken,,,1',
        '2024-01-06T00:00:00+00:00,,bad,https://s.example/bad,https://example.com/bad,,,many',
        '2024-01-06T00:00:00+00:00,,q"q,https://s.example/q,https://example.com/q,,,0',
        '2024-01-06T00:00:00+00:00,,short,https://s.example/short',
        '2024-01-07T00:00:00+00:00,,x,https://s.example/x,https://example.com/x,,,0',
      ].join('\n') + '\n',
    );
    await importThrice(['import', 'shlink', exported], dataDir, {
      imported: 3,
      clicks: 15,
      rejected: [
        /^line 4: rejected: .*"api" is reserved/,
        /^line 5: rejected: .*"taken" is already held/,
        /^line 6: rejected: visits many is not a whole number$/,
        /^line 7: rejected: a quote inside a cell that does not start with one$/,
        /^line 8: rejected: 4 cells where the header names 8$/,
      ],
    });
    // The importer's dialect: names any case with spaces, no domain column (the shortUrl's
    // host is the domain), tags split on commas.
    const imported = join(files, 'importer.csv');
    writeFileSync(
      imported,
      'Long URL,Short URL,Title,Tags\r\nhttps://example.com/imp,https://i.example/imp1,Imported,"a,b"\r\n',
    );
    const report = join(files, 'report.csv');
    const run = await runHop(['import', 'shlink', imported, '--report', report], hopEnv(dataDir));
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^imported 1 links with 0 clicks, unchanged 0, rejected 0/);
    assert.equal(
      readFileSync(report, 'utf8'),
      'source,code,outcome,detail\nline 2,imp1,imported,\n',
    );

    const server = await assertServed(t, dataDir, [
      { code: 'sh1', to: 'https://example.com/sh1', clicks: 12 },
      { code: 'sh2', to: 'https://example.com/sh2', clicks: 3, host: 's.example' },
      { code: 'x', to: 'https://example.com/x', clicks: 0 },
      { code: 'imp1', to: 'https://example.com/imp', clicks: 0, host: 'i.example' },
    ]);
    const sh1 = await linkJson(server, 'sh1');
    assert.equal(sh1.title, 'Shlink one');
    assert.deepEqual(sh1.tags, ['docs', 'launch']);
    assert.equal(sh1.created_at, '2024-01-02T03:04:05.000Z');
    const sh2 = await linkJson(server, 'sh2', 's.example');
    assert.equal(sh2.title, 'Title, with comma');
    assert.equal(sh2.created_at, '2024-01-03T02:04:05.000Z');
    assert.deepEqual((await linkJson(server, 'imp1', 'i.example')).tags, ['a', 'b']);
    // sh2 is on s.example only: the default domain does not serve it.
    assert.equal((await redirectOf(server, 'sh2')).status, 404);
  });
});

describe('a source hop cannot read', () => {
  test('is one error line and exit 2, never a stack trace', async (t) => {
    const dataDir = tempDataDir(t, 'hop-import-');
    const files = tempDataDir(t, 'bad-sources-');
    const noUrl = join(files, 'no-url.csv');
    writeFileSync(noUrl, 'shortCode,title\nabc,Nothing to point at\n');
    const empty = join(files, 'empty.db');
    new Database(empty).close();
    const cases: [string[], RegExp][] = [
      [['shlink', join(files, 'missing.csv')], /^hop: cannot read .*missing\.csv: ENOENT/],
      [['shlink', noUrl], /the header names no longUrl column/],
      [
        ['yourls', '--from', 'mysql://root@127.0.0.1:1/yourls'],
        /^hop: cannot reach the YOURLS database at mysql:\/\/root@127\.0\.0\.1:1\/yourls: .*ECONNREFUSED/,
      ],
      [
        ['kutt', '--from', 'postgres://postgres@127.0.0.1:1/kutt'],
        /^hop: cannot reach the Kutt database .*ECONNREFUSED/,
      ],
      [
        ['kutt', '--from', `sqlite:${join(files, 'missing.db')}`],
        /^hop: cannot read .*missing\.db: no such file/,
      ],
      [['kutt', '--from', `sqlite:${empty}`], /has no Kutt links or domains table/],
      [
        ['kutt', '--from', 'mysql://root@127.0.0.1/kutt'],
        /a Kutt database is read from postgres:\/\/… or sqlite:<file>/,
      ],
    ];
    if (await requireMariadb(t)) {
      const { url } = await testMariadbDatabase(t, 'hop_yourls');
      cases.push([
        ['yourls', '--from', url],
        /has no table yourls_url \(is --table-prefix right\?\)/,
      ]);
      cases.push([
        ['yourls', '--from', 'mysql://root:hunter2@127.0.0.1:3306/nope'],
        /^hop: cannot reach the YOURLS database at mysql:\/\/root:\*\*\*@/,
      ]);
    }
    if (await requirePostgres(t)) {
      const schema = testSchema(t);
      await queryPostgres('public', `CREATE SCHEMA ${schema}`);
      cases.push([
        ['kutt', '--from', `${POSTGRES_URL}?options=-c%20search_path%3D${schema}`],
        /has no links or domains table/,
      ]);
    }
    const runs = await Promise.all(
      cases.map(([args]) => runHop(['import', ...args], hopEnv(dataDir))),
    );
    runs.forEach((run, index) => {
      const [args, pattern] = cases[index]!;
      const context = `hop import ${args.join(' ')}\n${run.stderr}`;
      assert.equal(run.status, 2, context);
      assert.equal(run.stdout, '', context);
      assert.match(run.stderr, /^hop: [^\n]+\n$/, context);
      assert.match(run.stderr, pattern, context);
      assert.doesNotMatch(run.stderr, /hunter2|\n\s+at /, context);
    });
  });
});
