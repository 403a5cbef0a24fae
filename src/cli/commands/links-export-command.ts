import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { stringify } from 'csv-stringify';
import {
  EXPORTABLE_STATES,
  planLinkExport,
  type ExportableState,
  type LinkFileRecord,
} from '../../services/links/export-links.js';
import { LINK_FILE_COLUMNS, TAG_SEPARATOR } from '../../services/links/link-file-layout.js';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import { operator } from '../operator.js';
import { startProgressBar } from '../progress-bar.js';
import { withRuntime } from '../with-runtime.js';

export function addLinksExportCommand(links: Command): void {
  links
    .command('export')
    .description('write links as CSV, oldest first, in the format `hop links import` reads')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--owner <owner>', 'only this owner (default: every owner)')
    .addOption(
      new Option(
        '--state <state>',
        'only links in this state (default: active and disabled ones not past their expiry)',
      ).choices(EXPORTABLE_STATES),
    )
    .addHelpText(
      'after',
      `
Columns: ${LINK_FILE_COLUMNS.join(', ')}.
The alias column holds each link's code, generated or not, so an import brings back every
link under its code (a generated code becomes a custom alias there). expires_at is
RFC 3339 in UTC, empty for a link that never expires (an import gives it HOP_DEFAULT_TTL);
tags are separated by "${TAG_SEPARATOR}"; state is the link's state. Owners, ids, creation times and
clicks are not in the file.

By default, links that can be imported again are exported: not deleted, not expired, and
not past their expiry (an import refuses an expiry in the past). --state expired exports
expired ones for reading, not for importing.

Links are written oldest first, so an import creates them in the same order and a second
export of the imported links is the same file. With --out, the file is written to
<file>.tmp and renamed when complete. Cells are written as they are: a spreadsheet may
read a title starting with = + - or @ as a formula.

Examples:
  $ hop links export --out links.csv
  $ hop links export --owner marketing --state disabled > disabled.csv`,
    )
    .action(async (options: { out?: string; owner?: string; state?: ExportableState }) => {
      await withRuntime(async (runtime) => {
        const started = performance.now();
        const plan = await planLinkExport(runtime.linkService, operator(BOOTSTRAP_OWNER), {
          owner: options.owner,
          state: options.state,
        });
        const bar = startProgressBar(
          plan.count,
          'export [{bar}] {percentage}% | {value}/{total} links | ETA {eta_formatted}',
          {},
        );
        let written = 0;
        const counted = async function* (): AsyncGenerator<LinkFileRecord> {
          for await (const record of plan.records()) {
            yield record;
            bar.update(++written);
          }
        };
        const rows = Readable.from(withHeader(counted()));
        try {
          if (options.out === undefined) {
            await writeTo(rows, process.stdout);
          } else {
            await writeFileAtomically(rows, options.out);
          }
        } finally {
          bar.stop();
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const where = options.out === undefined ? '' : ` to ${options.out}`;
        process.stderr.write(`exported ${written} links${where} in ${seconds} s\n`);
      });
    });
}

async function* withHeader(
  records: AsyncIterable<LinkFileRecord>,
): AsyncGenerator<readonly string[]> {
  yield LINK_FILE_COLUMNS;
  yield* records;
}

async function writeTo(rows: Readable, out: Writable): Promise<void> {
  try {
    await pipeline(rows, stringify(), out);
  } catch (error) {
    // A reader that stops early (`| head`) is not a failure of the export.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}

/** Written under another name and renamed, so a file of that name is always complete. */
async function writeFileAtomically(rows: Readable, file: string): Promise<void> {
  const partial = `${file}.tmp`;
  try {
    await pipeline(rows, stringify(), createWriteStream(partial));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
