import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { LinkCsvError, MAX_ROW_BYTES, openLinkCsv } from '../../src/cli/csv/read-link-csv.js';
import { operator } from '../../src/cli/operator.js';
import { checkDestination } from '../../src/domain/destination-policy.js';
import { isHopError } from '../../src/domain/errors.js';
import { PROBLEMS } from '../../src/http/problems.js';
import {
  importLinks,
  type ImportOutcome,
  type ImportRow,
  type ImportSummary,
} from '../../src/services/links/import-links.js';
import {
  LINK_FILE_COLUMNS,
  readLinkFileLayoutOrThrow,
  type LinkFileColumn,
} from '../../src/services/links/link-file-layout.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { budgetSpentTest, fuzzTestAsync } from './fuzz-budget.js';

/**
 * ADR 0088 on the CSV importer (ADR 0069): whatever file it is given, `hop links import`
 * either refuses the file as a whole (LinkCsvError, or a header naming no usable columns)
 * or accounts for every row it read (imported or rejected, each at its line) and never
 * throws. The rows go through the real createLink into a real SQLite store, exactly as the
 * CLI command wires them (src/cli/commands/links-import-command.ts).
 */

const FILE = 'link-csv';

// --- cells --------------------------------------------------------------------------------

const anyText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(',', '"', '\n', '\r', '|', ' ', 'a', '\uFEFF'), maxLength: 8 }),
);

/** Plausible and implausible values for each column; '' is an absent field. */
const CELLS: Record<LinkFileColumn, fc.Arbitrary<string>> = {
  destination: fc.oneof(
    { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 5 },
    {
      arbitrary: fc.constantFrom(
        '',
        'http://127.0.0.1/',
        'http://0x7f000001/',
        'https://[::1]/',
        'javascript:alert(1)',
        'https://user:pw@example.com/',
        'https://localhost/',
        'https://ex ample.com/',
        'https://例え.jp/パス',
        `https://example.com/${'x'.repeat(2100)}`,
      ),
      weight: 2,
    },
    { arbitrary: anyText, weight: 1 },
  ),
  // A small pool, so that rows of one file (and of the files before it) ask for one alias.
  alias: fc.oneof(
    fc.constant(''),
    fc.constantFrom('fz-a', 'fz-b', 'fz_c', 'admin', 'Login', 'ab', 'x'.repeat(65), 'a.b', 'ü-ü'),
    fc.stringMatching(/^[A-Za-z0-9_-]{3,12}$/),
    anyText,
  ),
  expires_at: fc.oneof(
    fc.constant(''),
    fc
      .date({
        min: new Date('2026-06-02T00:00:00Z'),
        max: new Date('2040-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString()),
    fc.constantFrom(
      '2020-01-01T00:00:00Z',
      '2030-02-30T00:00:00Z',
      '2030-01-31',
      '2030-01-31T12:00:00+25:00',
      '9999-12-31T23:59:59Z',
      '+275760-09-13T00:00:00.000Z',
      'tomorrow',
    ),
    anyText,
  ),
  status_code: fc.oneof(
    fc.constantFrom('', '301', '302', '307', '308'),
    fc.constantFrom('200', '0', '-301', '301.0', ' 301', '3e2', '0x12d', '99999999999999999999999'),
    anyText,
  ),
  title: fc.oneof(fc.constant(''), anyText, fc.string({ minLength: 195, maxLength: 210 })),
  tags: fc.oneof(
    fc.constant(''),
    fc.array(fc.stringMatching(/^[a-z0-9_.:-]{1,8}$/), { maxLength: 4 }).map((t) => t.join('|')),
    fc.constantFrom('a||b', '|', 'a b', `${'t|'.repeat(25)}t`, 'x'.repeat(65)),
    anyText,
  ),
  state: fc.oneof(
    fc.constantFrom('', 'active', 'disabled'),
    fc.constantFrom('DISABLED', 'off'),
    anyText,
  ),
  // Smart-link cells (ADR 0113): the API's JSON, and what only looks like it.
  rules: fc.oneof(
    fc.constantFrom(
      '',
      '[]',
      '[{"destination":"https://m.example/","when":{"device":["mobile"]}}]',
      '[{"destination":"https://m.example/","status_code":301,"when":{"country":["de"],"after":"2030-01-01T00:00:00Z"}}]',
      '[{"destination":"javascript:1","when":{}}]',
      '[{"destination":"https://m.example/","when":{"device":["fridge"]}}]',
      '{"destination":"https://m.example/"}',
      '[',
      'null',
    ),
    anyText,
  ),
  variants: fc.oneof(
    fc.constantFrom(
      '',
      '[]',
      '[{"destination":"https://a.example/","weight":1},{"destination":"https://b.example/","weight":3}]',
      '[{"destination":"https://a.example/","weight":1}]',
      '[{"destination":"https://a.example/","weight":0},{"destination":"https://b.example/","weight":101}]',
      '{}',
    ),
    anyText,
  ),
  password_hash: fc.oneof(
    fc.constantFrom(
      '',
      `scrypt$8192$8$1$${'A'.repeat(22)}$${'B'.repeat(43)}`,
      `scrypt$8191$8$1$${'A'.repeat(22)}$${'B'.repeat(43)}`,
      `scrypt$1048576$8$1$${'A'.repeat(22)}$${'B'.repeat(43)}`,
      'hunter2',
    ),
    anyText,
  ),
  max_clicks: fc.oneof(
    fc.constantFrom('', '1', '100', '0', '-1', '1.5', '1000000001', '99999999999999999999999'),
    anyText,
  ),
  fallback_url: fc.oneof(
    fc.constant(''),
    fc.webUrl(),
    fc.constantFrom('http://127.0.0.1/', 'javascript:alert(1)'),
    anyText,
  ),
  forward_query: fc.oneof(fc.constantFrom('', 'true', 'false', 'TRUE', '1'), anyText),
  // The default domain by its host, one that does not exist, and no host at all.
  domain: fc.oneof(fc.constantFrom('', 'hop.test', 'nowhere.example', 'a b'), anyText),
  preview: fc.oneof(
    fc.constantFrom('', '{"title":"Spring"}', '{"image":"javascript:x"}', '[]', '{', 'null'),
    anyText,
  ),
  crawlable: fc.oneof(fc.constantFrom('', 'true', 'false', 'yes'), anyText),
};

// --- well-formed files --------------------------------------------------------------------

interface DraftRow {
  /** Cells short or long by this many: the row must be refused for its width. */
  readonly widthError: number;
  readonly cells: readonly string[];
  readonly blankLinesBefore: number;
}

interface Draft {
  readonly header: readonly string[];
  readonly headerIsUsable: boolean;
  readonly rows: readonly DraftRow[];
  readonly lineEnding: LineEnding;
  readonly bom: boolean;
  readonly trailingLineEnding: boolean;
  readonly concurrency: number;
}

/** A header of some columns in any order and spelling; now and then one that is unusable. */
const headers = fc
  .tuple(
    fc.shuffledSubarray([...LINK_FILE_COLUMNS.filter((c) => c !== 'destination')]),
    fc.nat(),
    fc.array(fc.constantFrom('', ' ', 'upper'), {
      minLength: LINK_FILE_COLUMNS.length + 1,
      maxLength: LINK_FILE_COLUMNS.length + 1,
    }),
    fc.oneof(
      { arbitrary: fc.constant(null), weight: 12 },
      { arbitrary: fc.constantFrom('destinaton', ' Destination', '', 'no-destination'), weight: 1 },
    ),
  )
  .map(([others, at, spellings, spoiler]) => {
    const columns: string[] = [...others];
    columns.splice(at % (columns.length + 1), 0, 'destination');
    let usable = true;
    if (spoiler === 'no-destination') {
      columns.splice(columns.indexOf('destination'), 1, 'url');
      usable = false;
    } else if (spoiler !== null) {
      // An unknown name, destination again, or an empty name: each refuses the whole file.
      columns.push(spoiler);
      usable = false;
    }
    const header = columns.map((name, i) =>
      spellings[i] === 'upper'
        ? name.toUpperCase()
        : `${spellings[i] ?? ''}${name}${spellings[i] ?? ''}`,
    );
    return { header, usable };
  });

const drafts: fc.Arbitrary<Draft> = headers.chain(({ header, usable }) =>
  fc.record({
    header: fc.constant(header),
    headerIsUsable: fc.constant(usable),
    rows: fc.array(
      fc.record({
        widthError: fc.oneof(
          { arbitrary: fc.constant(0), weight: 8 },
          { arbitrary: fc.constantFrom(-1, 1, 3, 1 - header.length), weight: 1 },
        ),
        cells: fc.tuple(
          ...header.map((name) => {
            const column = name.trim().toLowerCase() as LinkFileColumn;
            return CELLS[column] ?? anyText;
          }),
        ),
        blankLinesBefore: fc.oneof(
          { arbitrary: fc.constant(0), weight: 6 },
          { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 1 },
        ),
      }),
      { maxLength: 12 },
    ),
    lineEnding: fc.constantFrom<LineEnding>('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    trailingLineEnding: fc.boolean(),
    concurrency: fc.constantFrom(1, 3, 256),
  }),
);

/** The row's cells with its width error applied: cells dropped, or cells of "x" added. */
function cellsOf(row: DraftRow): string[] {
  if (row.widthError >= 0) return [...row.cells, ...Array<string>(row.widthError).fill('x')];
  return row.cells.slice(0, Math.max(1, row.cells.length + row.widthError));
}

/** What each line ending is called by csv-stringify's record_delimiter. */
const DELIMITER_NAMES = { '\n': 'unix', '\r\n': 'windows', '\r': 'mac' } as const;
type LineEnding = keyof typeof DELIMITER_NAMES;

/** The file's text and, for each row the reader will hand out, the line it starts on. */
function render(draft: Draft): { text: string; rows: { line: number; widthOk: boolean }[] } {
  const line = (cells: readonly string[]) =>
    stringify([cells], {
      record_delimiter: DELIMITER_NAMES[draft.lineEnding],
      // csv-stringify quotes only the line ending it writes; a lone CR or LF needs quotes too.
      quoted_match: /[\r\n]/,
    }).slice(0, -draft.lineEnding.length);
  let text = (draft.bom ? '\uFEFF' : '') + line(draft.header);
  const rows: { line: number; widthOk: boolean }[] = [];
  for (const row of draft.rows) {
    text += draft.lineEnding.repeat(1 + row.blankLinesBefore);
    const cells = cellsOf(row);
    const rendered = line(cells);
    // A row that renders as nothing is a blank line, which the reader skips.
    if (rendered !== '') {
      rows.push({
        line: lineBreaks(text, draft.lineEnding) + 1,
        widthOk: cells.length === draft.header.length,
      });
    }
    text += rendered;
  }
  if (draft.trailingLineEnding) text += draft.lineEnding;
  return { text, rows };
}

/**
 * Line breaks in `text` as an editor counts them: LF (CRLF included) in files written with
 * LF or CRLF, where a lone CR is data; any of CRLF, CR or LF in a file written with CR (as
 * classic Mac OS and some spreadsheet exports do), which csv-parse reads as rows too.
 */
function lineBreaks(text: string, ending: LineEnding): number {
  return (text.match(ending === '\r' ? /\r\n|\r|\n/g : /\n/g) ?? []).length;
}

// --- any bytes ----------------------------------------------------------------------------

/** A well-formed file spoilt in a few places: quotes, cut bytes, bad UTF-8, NULs, long rows. */
const spoiltFiles = fc
  .tuple(
    drafts,
    fc.array(
      fc.record({
        at: fc.nat(),
        cut: fc.nat({ max: 4 }),
        insert: fc.constantFrom('"', '""', '"x', ',', '\n', '\r', '\0', '\uFEFF', '\xff\xfe', 'é'),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([draft, edits]) => {
    let text = Buffer.from(render(draft).text, 'utf8').toString('latin1');
    for (const edit of edits) {
      const at = edit.at % (text.length + 1);
      text = text.slice(0, at) + edit.insert + text.slice(at + edit.cut);
    }
    return { bytes: Buffer.from(text, 'latin1'), concurrency: draft.concurrency };
  });

const anyFiles = fc
  .oneof(
    { arbitrary: spoiltFiles, weight: 6 },
    {
      arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
      weight: 1,
    },
    {
      // A header, then CSV's own punctuation in any order.
      arbitrary: fc
        .string({
          unit: fc.constantFrom(',', '"', '\n', '\r', 'h', 'ttps://a.b/', ' ', '\uFEFF', 'é', '|'),
          maxLength: 200,
        })
        .map((body) => Buffer.from(`destination,title,alias\n${body}`, 'utf8')),
      weight: 2,
    },
    {
      // Past the 64 KiB read chunk, and around the row bound.
      arbitrary: fc
        .tuple(
          fc.oneof(
            { arbitrary: fc.integer({ min: 60_000, max: 70_000 }), weight: 9 },
            // A megabyte a file: rarely, to keep the run within its time (ADR 0088).
            {
              arbitrary: fc.integer({ min: MAX_ROW_BYTES - 5_000, max: MAX_ROW_BYTES + 5_000 }),
              weight: 1,
            },
          ),
          fc.boolean(),
        )
        .map(([length, quoted]) => {
          const cell = quoted ? `"${'x'.repeat(length)}` : 'x'.repeat(length);
          return Buffer.from(
            `destination,title\nhttps://a.example/,${cell}\nhttps://b.example/,b\n`,
          );
        }),
      weight: 1,
    },
  )
  .map((file) => (Buffer.isBuffer(file) ? { bytes: file, concurrency: 256 } : file));

// --- the import, as the CLI command runs it -----------------------------------------------

describe('fuzz: hop links import (the link file format, ADR 0069)', () => {
  let server: TestServer;
  let files = 0;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    // Removes its data dir, and with it the generated files.
    await server.close();
  });

  interface ImportRun {
    /** Null when the file was refused as a whole, with the reason. */
    readonly summary: ImportSummary | null;
    readonly refusal: unknown;
    readonly outcomes: readonly ImportOutcome[];
    /** Rows the reader handed to the import. */
    readonly rowsRead: number;
  }

  /** Writes `content` to a file of its own and imports it; refusals of the whole file are returned. */
  async function importFile(content: string | Buffer, concurrency: number): Promise<ImportRun> {
    const file = join(server.dataDir, `links-${++files}.csv`);
    writeFileSync(file, content);
    try {
      let csv;
      try {
        csv = await openLinkCsv(file);
      } catch (error) {
        assert.ok(error instanceof LinkCsvError, `openLinkCsv threw ${String(error)}`);
        return { summary: null, refusal: error, outcomes: [], rowsRead: 0 };
      }
      let layout;
      try {
        layout = readLinkFileLayoutOrThrow(csv.header);
      } catch (error) {
        assert.ok(isHopError(error) && error.kind === 'invalid-request', String(error));
        // As the CLI does, the file is let go: its rows are never read.
        await csv.rows[Symbol.asyncIterator]().return?.(undefined);
        return { summary: null, refusal: error, outcomes: [], rowsRead: 0 };
      }
      let rowsRead = 0;
      const counted = async function* (): AsyncGenerator<ImportRow> {
        for await (const row of csv.rows) {
          rowsRead++;
          yield row;
        }
      };
      const outcomes: ImportOutcome[] = [];
      const summary = await importLinks(
        server.runtime.linkService,
        operator('fuzz'),
        layout,
        counted(),
        {
          concurrency,
          onOutcome: (outcome) => outcomes.push(outcome),
        },
      );
      return { summary, refusal: null, outcomes, rowsRead };
    } finally {
      rmSync(file, { force: true });
    }
  }

  /** What holds of every import, whatever its file. */
  function assertAccountedFor(run: ImportRun): void {
    const { summary, outcomes } = run;
    if (summary === null) return;
    assert.equal(summary.failed, 0, `a row failed: ${String(summary.stopped?.error)}`);
    assert.equal(summary.imported + summary.rejected, run.rowsRead, 'a row read was not reported');
    assert.equal(outcomes.length, run.rowsRead);
    let previous = 1;
    const codes = new Set<string>();
    for (const outcome of outcomes) {
      assert.ok(
        Number.isInteger(outcome.line) && outcome.line > previous,
        outcome.line === previous && previous > 1
          ? `two outcomes at line ${previous}: one row reported twice?`
          : `a row reported at line ${outcome.line}, after line ${previous} (the header is line 1)`,
      );
      previous = outcome.line;
      if (outcome.kind === 'rejected') {
        assert.ok(isHopError(outcome.error), `line ${outcome.line}: ${String(outcome.error)}`);
        const status = PROBLEMS[outcome.error.kind].status;
        assert.ok(status >= 400 && status < 500, `line ${outcome.line}: ${outcome.error.kind}`);
      } else if (outcome.kind === 'imported') {
        const { code, destination } = outcome.link;
        assert.ok(!codes.has(code), `two rows of one file got the code ${code}`);
        codes.add(code);
        const verdict = checkDestination(destination, server.runtime.linkService.destinationPolicy);
        assert.ok(verdict.ok, `imported a refused destination ${destination}`);
      }
    }
    if (summary.stopped !== null) {
      // Only a row the reader could not get past stops a healthy import: the last one read.
      assert.ok(isHopError(summary.stopped.error), String(summary.stopped.error));
      assert.equal(summary.stopped.line, outcomes.at(-1)?.line);
    }
    assert.equal(summary.lastLine, outcomes.at(-1)?.line ?? 0);
  }

  fuzzTestAsync(
    FILE,
    'a well-formed file: every data row is imported or rejected with its line',
    drafts,
    async (draft) => {
      const { text, rows } = render(draft);
      const run = await importFile(text, draft.concurrency);
      if (!draft.headerIsUsable) {
        assert.equal(run.summary, null, 'a file with an unusable header was imported');
        return;
      }
      // CR alone is not an RFC 4180 line break: refusing such a file whole is as good an
      // answer as reading it right. Reading it with every row at the wrong line is not.
      if (draft.lineEnding === '\r' && run.summary === null) return;
      assert.equal(run.refusal, null, `refused: ${String(run.refusal)}`);
      assertAccountedFor(run);
      assert.equal(run.summary?.stopped, null, 'a well-formed file stopped early');
      assert.deepEqual(
        run.outcomes.map((outcome) => outcome.line),
        rows.map((row) => row.line),
        'the outcomes are not at the lines of the data rows',
      );
      rows.forEach((row, i) => {
        const outcome = run.outcomes[i];
        if (!row.widthOk) {
          assert.equal(outcome?.kind, 'rejected', `line ${row.line} has the wrong width`);
        }
      });
    },
  );

  fuzzTestAsync(
    FILE,
    'any bytes: refused as a whole with LinkCsvError, or every row read is accounted for',
    anyFiles,
    async ({ bytes, concurrency }) => {
      assertAccountedFor(await importFile(bytes, concurrency));
    },
  );

  budgetSpentTest(FILE);
});
