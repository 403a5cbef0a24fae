import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { stringify, type Stringifier } from 'csv-stringify';
import type { PeerRow } from '../../domain/peer-link.js';
import { peerImportDepsOf } from '../../main/peer-import-deps.js';
import { PeerSourceError, type PeerRows } from '../../main/peer-source-error.js';
import { importPeerLinks } from '../../services/links/peer-import/import-peer-links.js';
import type {
  PeerImportOutcome,
  PeerImportSummary,
} from '../../services/links/peer-import/peer-import-outcome.js';
import { operator } from '../operator.js';
import { errorDetail } from '../problem-line.js';
import { startProgressBar } from '../progress-bar.js';
import { withRuntime } from '../with-runtime.js';

/** Exit status when the source cannot be read at all (as for `hop links import`'s file). */
const EXIT_UNUSABLE_SOURCE = 2;

export interface PeerImportCommandOptions {
  readonly owner: string;
  readonly dryRun?: boolean;
  readonly report?: string;
}

/**
 * Runs one `hop import <peer>`: opens the source before any database is touched (a bad
 * source exits 2 with one line), imports its rows on hop's configured store, reports each
 * rejected row on stderr as `<where>: <why>`, and says the totals on stdout.
 */
export async function runPeerImport(
  open: () => Promise<PeerRows>,
  options: PeerImportCommandOptions,
): Promise<void> {
  const source = await openOrExit(open);
  const report = options.report === undefined ? null : openReport(options.report);
  try {
    await withRuntime(
      async (runtime) => {
        const started = performance.now();
        const reading = readingOf(source);
        const bar = startProgressBar(
          source.progress().total,
          'import [{bar}] {percentage}% | {rows} rows | {rejected} rejected | ETA {eta_formatted}',
          { rows: 0, rejected: 0 },
        );
        let rows = 0;
        let rejected = 0;
        let summary: PeerImportSummary;
        try {
          summary = await importPeerLinks(
            peerImportDepsOf(runtime),
            operator(options.owner),
            reading.rows,
            {
              dryRun: options.dryRun === true,
              onOutcome: (outcome) => {
                rows++;
                report?.csv.write(reportRow(outcome));
                if (outcome.kind === 'rejected' || outcome.kind === 'failed') {
                  if (outcome.kind === 'rejected') rejected++;
                  bar.log(describeOutcome(outcome));
                }
                bar.update(source.progress().done, { rows, rejected });
              },
            },
          );
        } finally {
          bar.stop();
          await source.close();
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stdout.write(`${summaryLine(summary, options.dryRun === true)}, in ${seconds} s\n`);
        reportStop(summary, reading.error());
        if (summary.rejected > 0) process.exitCode = 1;
      },
      { createsDatabase: true },
    );
  } finally {
    await report?.close();
  }
}

async function openOrExit(open: () => Promise<PeerRows>): Promise<PeerRows> {
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof PeerSourceError)) throw error;
    process.stderr.write(`hop: ${error.message}\n`);
    process.exit(EXIT_UNUSABLE_SOURCE);
  }
}

/**
 * The source's rows, stopping quietly where reading fails mid-way (a connection lost): the
 * rows before it are imported and the failure told after the summary, not as a stack.
 */
function readingOf(source: PeerRows): { rows: AsyncIterable<PeerRow>; error(): unknown } {
  let failure: unknown = null;
  async function* rows(): AsyncGenerator<PeerRow> {
    try {
      for await (const row of source) yield row;
    } catch (error) {
      failure = error;
    }
  }
  return { rows: rows(), error: () => failure };
}

function summaryLine(summary: PeerImportSummary, dryRun: boolean): string {
  const counts =
    `${summary.imported} links with ${summary.clicks} clicks, ` +
    `unchanged ${summary.unchanged}, rejected ${summary.rejected}`;
  return dryRun ? `dry run, nothing written: would import ${counts}` : `imported ${counts}`;
}

function describeOutcome(outcome: PeerImportOutcome): string {
  switch (outcome.kind) {
    case 'rejected':
      return `${outcome.source}: rejected: ${outcome.detail}`;
    case 'failed':
      return `${outcome.source}: not imported: ${errorDetail(outcome.error)}`;
    default:
      return `${outcome.source}: ${outcome.kind}`;
  }
}

/** Says where the import stopped before the source's end, if it did. */
function reportStop(summary: PeerImportSummary, readError: unknown): void {
  if (summary.stopped !== null) {
    process.stderr.write(
      `hop: stopped at ${summary.stopped.source}: ${errorDetail(summary.stopped.error)}; ` +
        'the rows after it were not imported: run the same import again to go on ' +
        '(the links already imported are found unchanged)\n',
    );
    process.exitCode = 1;
    return;
  }
  if (readError !== null) {
    process.stderr.write(
      `hop: reading the source failed: ${errorDetail(readError)}; ` +
        'run the same import again to go on (the links already imported are found unchanged)\n',
    );
    process.exitCode = 1;
  }
}

interface Report {
  readonly csv: Stringifier;
  close(): Promise<void>;
}

/** `--report FILE`: one CSV line a row, whatever became of it; opened before the import. */
function openReport(file: string): Report {
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    process.stderr.write(`hop: cannot write the report: ${(error as Error).message}\n`);
    process.exit(EXIT_UNUSABLE_SOURCE);
  }
  const out: WriteStream = createWriteStream('', { fd });
  const csv = stringify({ header: true, columns: ['source', 'code', 'outcome', 'detail'] });
  csv.pipe(out);
  return {
    csv,
    close: () =>
      new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.on('close', () => {
          resolve();
        });
        csv.end();
      }),
  };
}

function reportRow(outcome: PeerImportOutcome): string[] {
  switch (outcome.kind) {
    case 'imported':
    case 'unchanged':
      return [outcome.source, outcome.code, outcome.kind, ''];
    case 'rejected':
      return [outcome.source, outcome.code ?? '', 'rejected', outcome.detail];
    case 'failed':
      return [outcome.source, '', 'failed', errorDetail(outcome.error)];
  }
}
