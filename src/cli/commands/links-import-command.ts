import { Option, type Command } from 'commander';
import { isHopError } from '../../domain/errors.js';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import {
  importLinks,
  type ImportOutcome,
  type ImportRow,
  type ImportSummary,
} from '../../services/links/import-links.js';
import {
  LINK_FILE_COLUMNS,
  readLinkFileLayoutOrThrow,
  TAG_SEPARATOR,
  type LinkFileLayout,
} from '../../services/links/link-file-layout.js';
import { LinkCsvError, openLinkCsv, type LinkCsv } from '../csv/read-link-csv.js';
import { operator } from '../operator.js';
import { errorDetail, problemLine } from '../problem-line.js';
import { startProgressBar } from '../progress-bar.js';
import { wholeNumberParser } from '../whole-number-parser.js';
import { withRuntime } from '../with-runtime.js';
import { parseOwner } from '../owner-parser.js';

/**
 * Rows in flight. Their inserts are written together, so this is also the largest batch:
 * one transaction on SQLite, one statement on PostgreSQL, whose importLinks writes up to
 * 1,000 links a statement (hence the most).
 */
const CONCURRENCY = { default: 256, most: 1000 } as const;
/** Exit status when the file cannot be imported at all (as for a bad configuration). */
const EXIT_UNUSABLE_FILE = 2;

export function addLinksImportCommand(links: Command): void {
  links
    .command('import')
    .description('create links from a CSV file; each refused row is reported and skipped')
    .argument('<file>', 'CSV file whose first line names its columns (see below)')
    .option('--owner <owner>', 'owner of the links', parseOwner, BOOTSTRAP_OWNER)
    .addOption(
      new Option(
        '--concurrency <n>',
        `rows in flight at once, written together, 1-${CONCURRENCY.most}`,
      )
        .argParser(wholeNumberParser(1, CONCURRENCY.most))
        .default(CONCURRENCY.default),
    )
    .addOption(
      new Option(
        '--from-line <n>',
        'skip the rows before this line (to go on after an import stopped at a bad row)',
      ).argParser(wholeNumberParser(2, Number.MAX_SAFE_INTEGER)),
    )
    .addHelpText(
      'after',
      `
The file is CSV (RFC 4180) in UTF-8. Its first line names its columns, in any order;
only destination is required:
  destination  the URL to shorten
  alias        the code to use (empty: a generated one)
  expires_at   an RFC 3339 time such as 2030-01-31T12:00:00Z (empty: HOP_DEFAULT_TTL)
  status_code  301, 302, 307 or 308 (empty: 302)
  title        free text
  tags         tags separated by "${TAG_SEPARATOR}", such as docs${TAG_SEPARATOR}launch
  state        active or disabled (empty: active)
Smart links (all empty for a plain link):
  rules          the rules as JSON, as the API takes them: [{"destination", "when"}, ...]
  variants       the variants as JSON: [{"destination", "weight"}, ...]
  password_hash  the password as hop links export writes it (its scrypt hash); the link
                 asks for the same password
  max_clicks     at most this many redirects (counted anew from the import)
  fallback_url   where an expired or used-up link sends visitors
  forward_query  true or false (empty: false)
\`hop links export\` writes this format; its files import as they are. A cell that starts
with an apostrophe before = + - or @ (how an export keeps spreadsheets from running it)
loses that apostrophe.

Each row is created as POST /v1/links creates a link and refused for the same reasons.
A refused row is reported on stderr as "line N: kind: detail" (the header is line 1; a
row spanning lines is reported at its first) and the import goes on. The rows with one
alias are created in file order, so the first that may have it does. At the end stdout
says how many rows were imported and rejected.

An import that a bad row stops (a quote never closed) says at which line; every row
before it was taken and none after it read, so once the row is fixed, --from-line with
that line goes on from it without creating the earlier rows again.

Exit status: 0 when every row was imported; 1 when a row was rejected or the import
stopped early (the store did not answer, or a quote never closed left the rest of the
file unreadable); 2 when the file could not be imported at all (unreadable, empty, or a
header naming an unknown column).

Example:
  $ cat links.csv
  ${LINK_FILE_COLUMNS.join(',')}
  https://example.com/launch,launch,2030-01-31T12:00:00Z,301,Launch,docs${TAG_SEPARATOR}launch,,,,,100,,true
  https://example.com/later,,,,,,disabled,,,,,,
  $ hop links import links.csv --owner marketing
  imported 2 rows, rejected 0, in 0.1 s`,
    )
    .action(async (file: string, options: ImportOptions) => {
      const { csv, layout } = await openOrExit(file);
      await withRuntime(
        async (runtime) => {
          const started = performance.now();
          const bar = startProgressBar(
            csv.sizeBytes,
            'import [{bar}] {percentage}% | {rows} rows | {rejected} rejected | ETA {eta_formatted}',
            { rows: 0, rejected: 0 },
          );
          let rows = 0;
          let rejected = 0;
          let summary: ImportSummary;
          try {
            summary = await importLinks(
              runtime.linkService,
              operator(options.owner),
              layout,
              options.fromLine === undefined ? csv.rows : fromLine(csv.rows, options.fromLine),
              {
                concurrency: options.concurrency,
                onOutcome: (outcome) => {
                  rows++;
                  if (outcome.kind !== 'imported') {
                    rejected++;
                    bar.log(describeOutcome(outcome));
                  }
                  bar.update(csv.bytesRead(), { rows, rejected });
                },
              },
            );
          } finally {
            bar.stop();
          }
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          const failed = summary.failed > 0 ? `, failed ${summary.failed}` : '';
          process.stdout.write(
            `imported ${summary.imported} rows, rejected ${summary.rejected}${failed}, in ${seconds} s\n`,
          );
          reportStop(summary);
          if (summary.rejected > 0 || summary.failed > 0) process.exitCode = 1;
        },
        { createsDatabase: true },
      );
    });
}

/** Opens the file and checks its header before any database is touched. */
async function openOrExit(file: string): Promise<{ csv: LinkCsv; layout: LinkFileLayout }> {
  try {
    const csv = await openLinkCsv(file);
    return { csv, layout: readLinkFileLayoutOrThrow(csv.header) };
  } catch (error) {
    if (!(error instanceof LinkCsvError) && !isHopError(error)) throw error;
    process.stderr.write(`hop: ${error.message}\n`);
    process.exit(EXIT_UNUSABLE_FILE);
  }
}

function describeOutcome(outcome: Exclude<ImportOutcome, { kind: 'imported' }>): string {
  if (outcome.kind === 'rejected') {
    return `line ${outcome.line}: ${outcome.error.kind}: ${problemLine(outcome.error)}`;
  }
  return `line ${outcome.line}: not imported: ${errorDetail(outcome.error)}`;
}

interface ImportOptions {
  readonly owner: string;
  readonly concurrency: number;
  readonly fromLine?: number;
}

/**
 * The rows from `line` on. A row the reader cannot get past (a quote never closed) is
 * never skipped, wherever it is: what follows it cannot be read.
 */
async function* fromLine(rows: AsyncIterable<ImportRow>, line: number): AsyncGenerator<ImportRow> {
  for await (const row of rows) {
    if (row.line >= line || ('malformed' in row && row.fatal)) yield row;
  }
}

/** Says where and why the import stopped before the end of the file, if it did. */
function reportStop(summary: ImportSummary): void {
  const { stopped, lastLine } = summary;
  if (stopped === null) return;
  // Stopped by the file, and no row before it failed to be stored: every row before the bad
  // one was taken and none after it read, so once it is fixed the import goes on from there.
  const goOn =
    stopped.unreadable && summary.failed === 0
      ? `; fix it and go on with --from-line ${stopped.line}`
      : '';
  process.stderr.write(
    `hop: stopped at line ${stopped.line}: ${errorDetail(stopped.error)}; ` +
      `no row after line ${lastLine} was read${goOn}\n`,
  );
  process.exitCode = 1;
  // Not a refusal nor a store that is down: a bug, whose stack is worth more than a line.
  if (!isHopError(stopped.error)) throw stopped.error;
}
