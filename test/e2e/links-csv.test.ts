import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { smartOptionsJson } from '../../src/domain/smart/smart-options-json.js';
import { NO_SMART_OPTIONS } from '../../src/domain/smart/smart-options.js';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { LINK_FILE_COLUMNS } from '../../src/services/links/link-file-layout.js';
import { makeLink } from '../contract/store-factories.js';
import { runHop, startHop, stopHop, type HopRun } from '../support/hop-process.js';
import { POSTGRES_URL, requirePostgres, testSchema } from '../support/require-postgres.js';
import { tempDataDir } from '../support/temp-data.js';
import { volume } from '../support/volume.js';

/**
 * ADR 0072: `hop links import` reports each bad row with its line and reason and carries
 * on, with exact counts; `hop links export` → import → export gives the same file.
 */

const DAY_MS = 86_400_000;
/** A lifetime set for the test, so the expiry of rows without one can be checked. */
const DEFAULT_TTL_DAYS = 30;
/**
 * The file the big test builds has the columns of a file from before smart links (issue
 * 21): such files import as they did; exports write every column.
 */
const OLDER_COLUMNS = LINK_FILE_COLUMNS.slice(0, 7);
const HEADER = OLDER_COLUMNS.join(',');

/** What a good row asked for, and so what its link must hold. */
interface GoodRow {
  readonly destination: string;
  readonly alias: string | null;
  readonly expiresAt: string | null;
  readonly statusCode: number;
  readonly title: string;
  readonly tags: string;
  readonly state: 'active' | 'disabled';
}

interface BadRow {
  readonly line: number;
  readonly kind: string;
  readonly detail: RegExp;
}

interface LinkFile {
  readonly text: string;
  /** Good rows by their destination as the service normalises it. */
  readonly good: ReadonlyMap<string, GoodRow>;
  readonly bad: readonly BadRow[];
}

/** One CSV line (or more, for a cell holding a line break) as csv-stringify writes it. */
function csvRow(cells: readonly string[]): string {
  return stringify([cells]).replace(/\n$/, '');
}

/**
 * Rows whose refusal the service (or the reader) explains: raw text (or cells) and the
 * kind and detail expected. `taken-before` is created before the import; `${prefix}-1` is
 * the alias of the first good row with one.
 */
function badRows(prefix: string): { raw: string; kind: string; detail: RegExp }[] {
  const row = (cells: Partial<Record<(typeof OLDER_COLUMNS)[number], string>>) =>
    csvRow(OLDER_COLUMNS.map((column) => cells[column] ?? ''));
  const url = 'https://example.com/bad';
  return [
    { raw: row({ destination: 'not a url' }), kind: 'invalid-destination', detail: /whitespace/ },
    {
      raw: row({ destination: 'javascript:alert(1)' }),
      kind: 'invalid-destination',
      detail: /absolute http:\/\/ or https:\/\/ URL/,
    },
    {
      raw: row({ destination: 'http://127.0.0.1/admin' }),
      kind: 'invalid-destination',
      detail: /./,
    },
    { raw: row({ destination: '' }), kind: 'invalid-destination', detail: /./ },
    {
      raw: row({ destination: `${url}/${'x'.repeat(2100)}` }),
      kind: 'invalid-destination',
      detail: /./,
    },
    {
      raw: row({ destination: url, alias: 'taken-before' }),
      kind: 'alias-taken',
      detail: /The alias "taken-before" is already taken\./,
    },
    {
      raw: row({ destination: url, alias: `${prefix}-1` }),
      kind: 'alias-taken',
      detail: new RegExp(`"${prefix}-1" is already taken`),
    },
    { raw: row({ destination: url, alias: 'no way!' }), kind: 'invalid-alias', detail: /only/ },
    { raw: row({ destination: url, alias: 'admin' }), kind: 'invalid-alias', detail: /reserved/ },
    {
      raw: row({ destination: url, status_code: '303' }),
      kind: 'invalid-status-code',
      detail: /one of 301, 302, 307, 308/,
    },
    {
      raw: row({ destination: url, status_code: 'abc' }),
      kind: 'invalid-status-code',
      detail: /one of 301, 302, 307, 308/,
    },
    {
      raw: row({ destination: url, expires_at: '2001-01-01T00:00:00Z' }),
      kind: 'invalid-expiry',
      detail: /must lie in the future/,
    },
    {
      raw: row({ destination: url, expires_at: 'tomorrow' }),
      kind: 'invalid-expiry',
      detail: /RFC 3339/,
    },
    {
      raw: row({ destination: url, expires_at: '2200-01-01T00:00:00Z' }),
      kind: 'invalid-expiry',
      detail: /maximum lifetime/,
    },
    { raw: row({ destination: url, tags: 'ok|bad tag' }), kind: 'invalid-request', detail: /tag/ },
    { raw: row({ destination: url, tags: 'a||b' }), kind: 'invalid-request', detail: /tag/ },
    {
      raw: row({ destination: url, title: 'x'.repeat(201) }),
      kind: 'invalid-request',
      detail: /at most 200/,
    },
    {
      // Spans two lines: it is reported at its first, and every later line still counts.
      raw: row({ destination: url, title: 'two\nlines' }),
      kind: 'invalid-request',
      detail: /control characters/,
    },
    {
      raw: row({ destination: url, state: 'archived' }),
      kind: 'invalid-request',
      detail: /state must be "active", "disabled" or empty/,
    },
    {
      raw: `${url}/short,short-row`,
      kind: 'invalid-request',
      detail: /The row has 2 cells where the header names 7 columns/,
    },
    {
      raw: `${url}/q"x,,,,,,`,
      kind: 'invalid-request',
      detail: /not valid CSV: a quote inside a cell/,
    },
  ];
}

/**
 * A link file of `goodCount` varied good rows with the bad rows scattered among them (and
 * a blank line, and two rows taking one alias back to back, within one batch).
 */
function buildLinkFile(goodCount: number, prefix: string): LinkFile {
  const lines = [HEADER];
  let nextLine = 2;
  const push = (raw: string): number => {
    const at = nextLine;
    lines.push(raw);
    nextLine += raw.split('\n').length;
    return at;
  };
  const good = new Map<string, GoodRow>();
  const bad: BadRow[] = [];
  const pending = badRows(prefix);
  const every = Math.floor(goodCount / (pending.length + 1));
  const expiryBase = Date.now() + 20 * DAY_MS;
  for (let i = 1; i <= goodCount; i++) {
    const destination =
      i % 1000 === 7
        ? `https://bücher.example/${prefix}/${i}`
        : `https://example.com/${prefix}/${i}?n=${i}`;
    // Titles and tags a spreadsheet would run as formulas; a leading apostrophe in the file
    // is how such text is kept from it, and is taken off on import.
    const formula = [
      [`=HYPERLINK("https://evil.example/${i}")`, `=HYPERLINK("https://evil.example/${i}")`],
      [`'@SUM(${i})`, `@SUM(${i})`],
      [`''+${i}`, `'+${i}`],
    ][i % 3] as [string, string];
    const [titleCell, title] =
      i % 4 === 0
        ? [`Title ${i}, "quoted"`, `Title ${i}, "quoted"`]
        : i % 4 === 1
          ? [`Plain ${i}`, `Plain ${i}`]
          : i % 4 === 2
            ? formula
            : ['', ''];
    const row: GoodRow = {
      destination: new URL(destination).href,
      alias: i % 2 === 1 ? `${prefix}-${i}` : null,
      expiresAt: i % 3 === 0 ? new Date(expiryBase + i * 1000).toISOString() : null,
      statusCode: [302, 301, 302, 307, 308][i % 5] as number,
      title,
      tags:
        i % 6 === 0 ? `t${i % 5}|g-${i % 3}` : i % 6 === 1 ? 'solo' : i % 6 === 2 ? `-A${i}|b` : '',
      state: i % 10 === 0 ? 'disabled' : 'active',
    };
    good.set(row.destination, row);
    push(
      csvRow([
        destination,
        row.alias ?? '',
        row.expiresAt ?? '',
        i % 5 === 0 ? '' : String(row.statusCode),
        titleCell,
        row.tags,
        row.state === 'disabled' ? 'disabled' : i % 10 === 5 ? 'active' : '',
      ]),
    );
    if (i === 2) {
      lines.push('');
      nextLine++;
    }
    if (i === every * 3) {
      good.set(`https://example.com/${prefix}/twin`, {
        ...row,
        destination: `https://example.com/${prefix}/twin`,
        alias: `${prefix}-twin`,
        expiresAt: null,
        statusCode: 302,
        title: '',
        tags: '',
        state: 'active',
      });
      push(`https://example.com/${prefix}/twin,${prefix}-twin,,,,,`);
      const line = push(`https://example.com/${prefix}/twin-2,${prefix}-twin,,,,,`);
      bad.push({ line, kind: 'alias-taken', detail: /already taken/ });
    }
    if (i % every === 0 && pending.length > 0) {
      const next = pending.shift()!;
      bad.push({ line: push(next.raw), kind: next.kind, detail: next.detail });
    }
  }
  return { text: `${lines.join('\n')}\n`, good, bad };
}

interface ImportReport {
  readonly imported: number;
  readonly rejected: number;
  readonly seconds: number;
  readonly rejections: readonly { line: number; kind: string; detail: string }[];
}

function importReport(run: HopRun): ImportReport {
  const summary = /^imported (\d+) rows, rejected (\d+), in ([\d.]+) s$/m.exec(run.stdout);
  assert.ok(summary, `no summary in:\n${run.stdout}\n${run.stderr}`);
  const rejections = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('line '))
    .map((line) => {
      const [, at, kind, detail] = /^line (\d+): ([a-z-]+): (.*)$/.exec(line) ?? [];
      assert.ok(at !== undefined && kind !== undefined && detail !== undefined, line);
      return { line: Number(at), kind, detail };
    });
  return {
    imported: Number(summary[1]),
    rejected: Number(summary[2]),
    seconds: Number(summary[3]),
    rejections,
  };
}

/** Exact counts, and each bad row reported at its line with its kind and detail, in order. */
function assertReport(report: ImportReport, file: LinkFile): void {
  assert.equal(report.imported, file.good.size);
  assert.equal(report.rejected, file.bad.length);
  assert.deepEqual(
    report.rejections.map(({ line, kind }) => [line, kind]),
    file.bad.map(({ line, kind }) => [line, kind]),
  );
  report.rejections.forEach((rejection, i) => {
    assert.match(rejection.detail, file.bad[i]!.detail, `line ${rejection.line}`);
  });
}

/** Text a spreadsheet would run as a formula (= + - @, after any apostrophes), behind one more. */
function spreadsheetSafe(text: string): string {
  return /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Every good row is in the export, as it asked (codes and default expiries as generated). */
function assertExportHolds(
  csv: string,
  file: LinkFile,
  window: { readonly from: number; readonly to: number },
): string[][] {
  const [header, ...records] = parse(csv);
  assert.deepEqual(header, [...LINK_FILE_COLUMNS]);
  const seen = new Set<string>();
  for (const [destination, code, expiresAt, status, title, tags, state, ...rest] of records) {
    const smart = rest.slice(0, 6);
    const row = file.good.get(destination!);
    if (row === undefined) continue;
    assert.deepEqual(smart, ['', '', '', '', '', ''], `a plain link's smart cells: ${destination}`);
    seen.add(row.destination);
    if (row.alias === null) assert.match(code!, /^[0-9A-Za-z]{7}$/);
    else assert.equal(code, row.alias);
    if (row.expiresAt === null) {
      const at = Date.parse(expiresAt!);
      const ttl = DEFAULT_TTL_DAYS * DAY_MS;
      assert.ok(
        at >= window.from + ttl && at <= window.to + ttl,
        `${expiresAt} for ${destination}`,
      );
    } else {
      assert.equal(expiresAt, row.expiresAt);
    }
    assert.deepEqual(
      [status, title, tags, state],
      [String(row.statusCode), spreadsheetSafe(row.title), spreadsheetSafe(row.tags), row.state],
      destination,
    );
  }
  assert.equal(seen.size, file.good.size, 'every imported link is exported');
  return records;
}

function hop(args: readonly string[], env: Record<string, string>): Promise<HopRun> {
  return runHop(args, { HOP_DEFAULT_TTL: `${DEFAULT_TTL_DAYS}d`, HOP_LOG_LEVEL: 'warn', ...env });
}

async function timedImport(
  t: TestContext,
  file: string,
  env: Record<string, string>,
): Promise<ImportReport> {
  const started = Date.now();
  const run = await hop(['links', 'import', file], env);
  const report = importReport(run);
  t.diagnostic(
    `imported ${report.imported} and rejected ${report.rejected} rows: ${report.seconds} s ` +
      `by hop's count, ${((Date.now() - started) / 1000).toFixed(1)} s with start-up`,
  );
  assert.equal(run.status, report.rejected > 0 ? 1 : 0, run.stderr);
  return report;
}

/** Rows of the round trip: many import batches either way; 100,000 under `npm run test:scale`. */
const IMPORT_ROWS = volume(5_000, 100_000);

describe('hop links import and export', () => {
  test(`${IMPORT_ROWS.toLocaleString('en')} rows into SQLite: exact counts, each bad row by line; the round trip keeps every link`, async (t) => {
    const dir = tempDataDir(t, 'hop-csv-e2e-');
    const first = { HOP_DATA_DIR: join(dir, 'first') };
    const second = { HOP_DATA_DIR: join(dir, 'second') };
    const file = buildLinkFile(IMPORT_ROWS, 'r');
    writeFileSync(join(dir, 'links.csv'), file.text);
    // Made straight in the store, as a CLI run would cost a start-up: a link that takes an
    // alias of the file, and ones the export leaves out by default, as an import would
    // refuse them (expired, past expiry) or could never recreate them (deleted).
    const now = Date.now();
    const store = SqliteStore.open({ file: join(first.HOP_DATA_DIR, 'hop.db') });
    const made = [
      makeLink({ code: 'taken-before', owner: 'admin', custom: true, expiresAt: now + DAY_MS }),
      makeLink({ code: 'gone-expired', state: 'expired', expiresAt: now - DAY_MS }),
      makeLink({ code: 'gone-lapsed', expiresAt: now - DAY_MS }),
      makeLink({ code: 'gone-deleted', state: 'deleted', deletedAt: now }),
    ];
    for (const link of made) await store.links.insertLink(link);
    await store.close();

    const from = Date.now();
    const report = await timedImport(t, join(dir, 'links.csv'), first);
    const to = Date.now();
    assertReport(report, file);

    const exported = await hop(['links', 'export', '--out', join(dir, 'first.csv')], first);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(
      exported.stderr,
      new RegExp(`exported ${file.good.size + 1} links to .*first\\.csv in [\\d.]+ s`),
    );
    const firstCsv = readFileSync(join(dir, 'first.csv'), 'utf8');
    const records = assertExportHolds(firstCsv, file, { from, to });
    assert.equal(records.length, file.good.size + 1, 'and the link made before');
    assert.ok(!/gone-/.test(firstCsv));
    const expired = await hop(['links', 'export', '--state', 'expired'], first);
    assert.deepEqual(
      parse(expired.stdout)
        .slice(1)
        .map((record) => [record[1], record[6]])
        .sort(),
      [
        ['gone-expired', 'expired'],
        ['gone-lapsed', 'expired'],
      ],
    );

    const again = await timedImport(t, join(dir, 'first.csv'), second);
    assert.deepEqual([again.imported, again.rejected], [records.length, 0]);
    const reexported = await hop(['links', 'export', '--out', join(dir, 'second.csv')], second);
    assert.equal(reexported.status, 0, reexported.stderr);
    assert.equal(
      readFileSync(join(dir, 'second.csv'), 'utf8'),
      firstCsv,
      'the same file, link for link',
    );
  });

  test('a quote never closed stops the import at its row; a file it cannot use changes nothing', async (t) => {
    const dir = tempDataDir(t, 'hop-csv-stop-');
    const env = { HOP_DATA_DIR: join(dir, 'data') };
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };

    const stops = await hop(
      [
        'links',
        'import',
        write(
          'open.csv',
          `${HEADER}\nhttps://example.com/1,one,,,,,\nhttps://example.com/2,two,,,"open,,\nhttps://example.com/3,three,,,,,\n`,
        ),
      ],
      env,
    );
    assert.equal(stops.status, 1);
    assert.match(stops.stdout, /^imported 1 rows, rejected 1, in [\d.]+ s$/m);
    assert.match(
      stops.stderr,
      /^line 3: invalid-request: The row is not valid CSV: a quoted cell is never closed$/m,
    );
    assert.match(
      stops.stderr,
      /^hop: stopped at line 3: .* never closed; no row after line 3 was read; fix it and go on with --from-line 3$/m,
    );
    // Fixed, and gone on with from line 3: line 2's link is not made again.
    const goesOn = await hop(
      [
        'links',
        'import',
        write(
          'fixed.csv',
          `${HEADER}\nhttps://example.com/1,one,,,,,\nhttps://example.com/2,two,,,"open",,\nhttps://example.com/3,three,,,,,\n`,
        ),
        '--from-line',
        '3',
      ],
      env,
    );
    assert.equal(goesOn.status, 0, goesOn.stderr);
    assert.match(goesOn.stdout, /^imported 2 rows, rejected 0, in [\d.]+ s$/m);

    // A quote gone wrong on a line of its own: that row is refused, the import goes on.
    const stepped = await hop(
      [
        'links',
        'import',
        write(
          'unescaped.csv',
          `${HEADER}\nhttps://example.com/7,,,,"say "hi" there",,\nhttps://example.com/8,eight,,,,,\n`,
        ),
      ],
      env,
    );
    assert.equal(stepped.status, 1);
    assert.match(stepped.stdout, /^imported 1 rows, rejected 1, in [\d.]+ s$/m);
    assert.match(
      stepped.stderr,
      /^line 2: invalid-request: The row is not valid CSV: a quoted cell goes on after its closing quote$/m,
    );
    assert.doesNotMatch(stepped.stderr, /stopped/);

    const unknown = await hop(
      ['links', 'import', write('typo.csv', 'destination,url\nhttps://example.com/4,x\n')],
      env,
    );
    assert.equal(unknown.status, 2);
    assert.match(
      unknown.stderr,
      /^hop: The header \(line 1\) must name columns among .*: unknown column "url"\.$/m,
    );
    const clean = await hop(
      [
        'links',
        'import',
        write(
          'ok.csv',
          'destination,state\nhttps://example.com/5,\nhttps://example.com/6,disabled\n',
        ),
      ],
      env,
    );
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /^imported 2 rows, rejected 0, in/m);
    const listed = await hop(['links', 'list', '--json'], env);
    assert.deepEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((link) => [link.destination, link.state, link.version]),
      [
        // Created disabled, in one write (version 1): it never redirected, not for a moment.
        ['https://example.com/6', 'disabled', 1],
        ['https://example.com/5', 'active', 1],
        ['https://example.com/8', 'active', 1],
        ['https://example.com/3', 'active', 1],
        ['https://example.com/2', 'active', 1],
        ['https://example.com/1', 'active', 1],
      ],
    );
  });

  test('an export to a path it cannot write, or an owner no key can have: a line that says so', async (t) => {
    const dir = tempDataDir(t, 'hop-csv-out-');
    const env = { HOP_DATA_DIR: join(dir, 'data') };
    writeFileSync(join(dir, 'a-file'), '');
    const cases = [
      [join(dir, 'no-such-folder', 'links.csv'), 'its folder does not exist'],
      [dir, 'it is a folder'],
      [join(dir, 'a-file', 'links.csv'), 'a part of its path is not a folder'],
    ] as const;
    for (const [out, reason] of cases) {
      const run = await hop(['links', 'export', '--out', out], env);
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stderr, `hop: cannot write ${out}: ${reason}\n`);
    }
    assert.deepEqual(readdirSync(dir), ['a-file'], 'no partial file left, no store opened');
    // A store that cannot be opened (its data dir is a file) leaves no partial file either.
    const noStore = await hop(['links', 'export', '--out', join(dir, 'links.csv')], {
      HOP_DATA_DIR: join(dir, 'a-file'),
    });
    assert.notEqual(noStore.status, 0);
    assert.deepEqual(readdirSync(dir), ['a-file'], noStore.stderr);

    for (const args of [
      ['links', 'create', 'https://example.com/x', '--owner', ''],
      ['links', 'import', join(dir, 'a-file'), '--owner', 'a b'],
      ['links', 'seed', '--count', '1', '--owner', 'x'.repeat(129)],
    ]) {
      const run = await hop(args, env);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /--owner <owner>' argument .* is invalid\. An owner has 1 to 128/);
    }
  });

  test('2,000 rows into PostgreSQL, several creates in flight: the same counts and lines', async (t) => {
    if (!(await requirePostgres(t))) return;
    const dir = tempDataDir(t, 'hop-csv-pg-');
    const env = {
      HOP_DATA_DIR: dir,
      HOP_DATABASE_URL: POSTGRES_URL,
      HOP_DATABASE_SCHEMA: testSchema(t),
    };
    const file = buildLinkFile(2_000, 'p');
    writeFileSync(join(dir, 'links.csv'), file.text);
    assert.equal(
      (await hop(['links', 'create', 'https://example.com/before', '--alias', 'taken-before'], env))
        .status,
      0,
    );

    const from = Date.now();
    const report = await timedImport(t, join(dir, 'links.csv'), env);
    const to = Date.now();
    assertReport(report, file);
    const exported = await hop(['links', 'export'], env);
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(assertExportHolds(exported.stdout, file, { from, to }).length, file.good.size + 1);
  });
});

/** A rule of every condition kind, and one with a status of its own (issue 21). */
const EVERY_CONDITION_RULES = [
  {
    destination: 'https://m.example/app',
    when: {
      device: ['mobile', 'tablet'],
      os: ['ios', 'android'],
      browser: ['safari', 'chrome'],
      language: ['de', 'pt-BR'],
      country: ['de', 'AT'],
      query: { ref: 'news', beta: true },
      ip: ['192.0.2.0/24', '2001:db8::/32'],
      after: '2030-01-01T00:00:00Z',
      before: '2031-01-01T00:00:00.000Z',
    },
  },
  { destination: 'https://fr.example/', status_code: 307, when: { country: ['FR'] } },
];
const TWO_VARIANTS = JSON.stringify([
  { destination: 'https://a.example/', weight: 1 },
  { destination: 'https://b.example/', weight: 3 },
]);

/** What the API's JSON says of a link that a round trip must keep (ids and times aside). */
const WIRE_FIELDS = [
  'code',
  'destination',
  ...Object.keys(smartOptionsJson(NO_SMART_OPTIONS)),
  'utm',
];

describe('smart links in link files (issue 21, ADR 0113)', () => {
  test('export → import into a fresh data dir → export is the same file; the password travels', async (t) => {
    const dir = tempDataDir(t, 'hop-csv-smart-');
    const first = { HOP_DATA_DIR: join(dir, 'first') };
    const second = { HOP_DATA_DIR: join(dir, 'second') };
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(EVERY_CONDITION_RULES));
    writeFileSync(join(dir, 'password'), 'open sesame\n');
    const made: [string, ...string[]][] = [
      [
        'smart',
        '--rules',
        join(dir, 'rules.json'),
        '--variants',
        TWO_VARIANTS,
        '--password-file',
        join(dir, 'password'),
        '--max-clicks',
        '5',
        '--fallback-url',
        'https://example.com/gone',
        '--forward-query',
        '--utm-source',
        'news',
        '--utm-campaign',
        'spring launch',
      ],
      ['locked', '--password-file', join(dir, 'password')],
      ['forwards', '--forward-query'],
      ['limited', '--max-clicks', '1', '--fallback-url', 'https://example.com/sold-out'],
      ['plain'],
    ];
    for (const [alias, ...options] of made) {
      const run = await hop(
        ['links', 'create', `https://example.com/${alias}`, '--alias', alias, ...options],
        first,
      );
      assert.equal(run.status, 0, run.stderr);
    }
    // A file written by hand: smart cells the API's parser checks, each bad row at its line.
    const cells = (values: Partial<Record<(typeof LINK_FILE_COLUMNS)[number], string>>) =>
      csvRow(LINK_FILE_COLUMNS.map((column) => values[column] ?? ''));
    const handWritten = [
      LINK_FILE_COLUMNS.join(','),
      cells({
        destination: 'https://example.com/by-hand',
        alias: 'by-hand',
        rules: JSON.stringify([
          { destination: 'https://m.example/', when: { device: ['mobile'] } },
        ]),
        variants: '[]',
        forward_query: 'false',
      }),
      cells({
        destination: 'https://example.com/bad-rule',
        rules: JSON.stringify([
          { destination: 'https://m.example/', when: { device: ['fridge'] } },
        ]),
      }),
      cells({ destination: 'https://example.com/bad-hash', password_hash: 'hunter2' }),
      cells({ destination: 'https://example.com/bad-json', rules: '[{"destination":' }),
      cells({
        destination: 'https://example.com/bad-many',
        max_clicks: '0',
        fallback_url: 'javascript:alert(1)',
        variants: JSON.stringify([{ destination: 'https://a.example/', weight: 1 }]),
      }),
    ];
    writeFileSync(join(dir, 'hand.csv'), `${handWritten.join('\n')}\n`);
    const hand = await hop(['links', 'import', join(dir, 'hand.csv')], first);
    assert.equal(hand.status, 1, hand.stderr);
    assert.match(hand.stdout, /^imported 1 rows, rejected 4, in/m);
    const lines = hand.stderr.split('\n').filter((line) => line.startsWith('line '));
    assert.equal(lines.length, 4, hand.stderr);
    assert.match(lines[0]!, /^line 3: invalid-request: rules\[0\]\.when\.device\[0\]: /);
    assert.match(lines[1]!, /^line 4: invalid-request: password_hash must be a hash as hop/);
    assert.match(lines[2]!, /^line 5: invalid-request: rules must be a JSON array/);
    assert.match(lines[3]!, /^line 6: invalid-request: .*variants: .*max_clicks: .*fallback_url: /);

    const exported = await hop(['links', 'export', '--out', join(dir, 'first.csv')], first);
    assert.equal(exported.status, 0, exported.stderr);
    const firstCsv = readFileSync(join(dir, 'first.csv'), 'utf8');
    const [header, ...records]: string[][] = parse(firstCsv);
    assert.deepEqual(header, [...LINK_FILE_COLUMNS]);
    const byCode = new Map(records.map((record) => [record[1], record]));
    assert.deepEqual(
      byCode.get('plain')?.slice(7, 13),
      ['', '', '', '', '', ''],
      'plain stays plain',
    );
    const smart = byCode.get('smart')!;
    assert.equal(
      smart[0],
      'https://example.com/smart?utm_source=news&utm_campaign=spring%20launch',
    );
    assert.match(smart[9]!, /^scrypt\$8192\$8\$1\$/, 'the hash, never the password');
    assert.ok(!firstCsv.includes('open sesame'));
    assert.deepEqual(smart.slice(10), ['5', 'https://example.com/gone', 'true', '', '', '']);
    assert.deepEqual(
      JSON.parse(smart[7]!).map((rule: { when: object }) => Object.keys(rule.when).length),
      [9, 1],
      'every condition kind is kept',
    );

    const imported = await hop(['links', 'import', join(dir, 'first.csv')], second);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /^imported 6 rows, rejected 0, in/m);
    const again = await hop(['links', 'export', '--out', join(dir, 'second.csv')], second);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(readFileSync(join(dir, 'second.csv'), 'utf8'), firstCsv, 'byte for byte');

    // The API's JSON of every link is the same on both sides, smart fields and all.
    const wire = async (env: Record<string, string>) =>
      (await hop(['links', 'list', '--json'], env)).stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .map((link) => Object.fromEntries(WIRE_FIELDS.map((field) => [field, link[field]])));
    const firstWire = await wire(first);
    assert.deepEqual(await wire(second), firstWire);
    const smartWire = firstWire.find((link) => link.code === 'smart')!;
    assert.deepEqual(
      [smartWire.password_protected, smartWire.max_clicks, smartWire.forward_query, smartWire.utm],
      [true, 5, true, { source: 'news', campaign: 'spring launch' }],
    );

    // The imported link asks for the password it was made with: its hash travelled.
    const served = await startHop(second);
    try {
      const visit = (password: string | null) =>
        fetch(`${served.url}/locked`, {
          redirect: 'manual',
          headers: password === null ? {} : { 'X-Link-Password': password },
        });
      assert.equal((await visit(null)).status, 200, 'the form');
      assert.equal((await visit('not it')).status, 401);
      const right = await visit('open sesame');
      assert.equal(right.status, 302);
      assert.equal(right.headers.get('location'), 'https://example.com/locked');
    } finally {
      await stopHop(served);
    }
  });
});

describe('hop links disable and enable', () => {
  test('a disabled link is listed as such and its redirect is a 404; enable turns it back on', async (t) => {
    const env = { HOP_DATA_DIR: tempDataDir(t, 'hop-disable-') };
    assert.equal(
      (await hop(['links', 'create', 'https://example.com/switch', '--alias', 'switch'], env))
        .status,
      0,
    );

    const disabled = await hop(['links', 'disable', 'switch'], env);
    assert.equal(disabled.status, 0, disabled.stderr);
    const [, id] = /^switch {2}disabled {2}(\S+)$/.exec(disabled.stdout.trim()) ?? [];
    assert.ok(id, disabled.stdout);
    assert.match(
      (await hop(['links', 'list', '--state', 'disabled'], env)).stdout,
      /^code {2}state {2}clicks {2}owner {2}destination\nswitch {2}disabled /,
    );
    await assertRedirect(env, 'switch', 404);

    // Found by its id as well; the state printed is the one a redirect sees now.
    const enabled = await hop(['links', 'enable', id], env);
    assert.equal(enabled.stdout.trim(), `switch  active  ${id}`);

    const unknown = await hop(['links', 'disable', 'no-such-link'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No link has the code or id "no-such-link"/);
  });
});

async function assertRedirect(
  env: Record<string, string>,
  code: string,
  status: number,
): Promise<void> {
  const served = await startHop(env);
  try {
    const response = await fetch(`${served.url}/${code}`, { redirect: 'manual' });
    assert.equal(response.status, status);
  } finally {
    await stopHop(served);
  }
}
