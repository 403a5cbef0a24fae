import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { stringify } from 'csv-stringify';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import {
  listLinkVisits,
  MAX_VISITS_LIMIT,
  VISIT_FIELDS,
  type VisitsPage,
} from '../../services/analytics/list-link-visits.js';
import { operator } from '../operator.js';
import { withRuntime } from '../with-runtime.js';

/** The CSV's columns: the API's visit fields, in its order. */
export const VISIT_CSV_COLUMNS = VISIT_FIELDS;

interface ExportOptions {
  link: string;
  domain?: string;
  from: string;
  to: string;
  out?: string;
}

/** `hop visits export` (issue 23, ADR 0125). */
export function addVisitsCommand(program: Command): void {
  const visits = program.command('visits').description("a link's visits (HOP_VISIT_LOG)");
  visits
    .command('export')
    .description("write a link's visits in [from, to) as CSV, newest first")
    .requiredOption('--link <id or code>', 'the link, by its id or its code')
    .option('--domain <host>', 'the short domain of a link named by its code')
    .requiredOption('--from <time>', 'RFC 3339, inclusive (e.g. 2026-06-01T00:00:00Z)')
    .requiredOption('--to <time>', 'RFC 3339, exclusive')
    .option('--out <file>', 'write to this file instead of stdout')
    .addHelpText(
      'after',
      `
Columns: ${VISIT_CSV_COLUMNS.join(', ')}. at is RFC 3339 in UTC (the start of the click's
second); an unknown country, city, language or referrer is an empty cell; bot is true or
false. With --out, the file is written to <file>.tmp and renamed when complete.

Example:
  $ hop visits export --link abc1234 --from 2026-06-01T00:00:00Z --to 2026-07-01T00:00:00Z --out june.csv`,
    )
    .action(async (options: ExportOptions) => {
      await withRuntime(
        async (runtime) => {
          // The first page before any output: a bad range or an unknown link is said as
          // such (exit 1), not as a broken stream.
          const pageOf = (cursor: string | undefined) =>
            listLinkVisits(runtime.appDeps.analytics, operator(BOOTSTRAP_OWNER), options.link, {
              from: options.from,
              to: options.to,
              domain: options.domain,
              cursor,
              limit: MAX_VISITS_LIMIT,
            });
          const rows = Readable.from(visitRows(await pageOf(undefined), pageOf));
          if (options.out === undefined) {
            await writeCsv(rows, process.stdout);
            return;
          }
          const partial = `${options.out}.tmp`;
          try {
            await writeCsv(rows, createWriteStream(partial));
            await rename(partial, options.out);
          } finally {
            await rm(partial, { force: true });
          }
        },
        { readOnly: true },
      );
    });
}

/** The header, then every visit, page by page from the first. */
async function* visitRows(
  first: VisitsPage,
  pageOf: (cursor: string) => Promise<VisitsPage>,
): AsyncGenerator<readonly (string | boolean)[]> {
  yield VISIT_CSV_COLUMNS;
  for (let page: VisitsPage | null = first; page !== null;) {
    for (const visit of page.visits) {
      yield [
        new Date(visit.at).toISOString(),
        visit.country ?? '',
        visit.city ?? '',
        visit.device,
        visit.os,
        visit.browser,
        visit.language ?? '',
        visit.referrerHost ?? '',
        visit.bot,
      ];
    }
    page = page.nextCursor === null ? null : await pageOf(page.nextCursor);
  }
}

async function writeCsv(rows: Readable, out: Writable): Promise<void> {
  try {
    await pipeline(rows, stringify({ cast: { boolean: (value) => String(value) } }), out);
  } catch (error) {
    // A reader that stops early (`| head`) is not a failure of the export.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}
