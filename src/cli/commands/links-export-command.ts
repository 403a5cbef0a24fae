import { rmSync } from 'node:fs';
import { open, rename, stat, type FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { stringify } from 'csv-stringify';
import { isHopError } from '../../domain/errors.js';
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
    .option('--domain <host>', 'only links on this short domain (default: every domain)')
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
tags are separated by "${TAG_SEPARATOR}"; state is the link's state. A smart link's rules and
variants are JSON as the API writes them, its password the stored hash (never the password:
an import keeps it), then max_clicks, fallback_url and forward_query; a plain link leaves
them empty. Owners, ids, creation times and clicks are not in the file (a click limit
counts anew after an import).

By default, links that can be imported again are exported: not deleted, not expired, and
not past their expiry (an import refuses an expiry in the past). --state expired exports
expired ones for reading, not for importing.

Links are written oldest first, so an import creates them in the same order and a second
export of the imported links is the same file. With --out, the file is written to
<file>.tmp and renamed when complete. A cell of text (destination, alias, title, tags)
starting with = + - @ (which a spreadsheet would run as a formula) is written behind an
apostrophe, which an import takes off again.

Examples:
  $ hop links export --out links.csv
  $ hop links export --owner marketing --state disabled > disabled.csv`,
    )
    .action(
      async (options: {
        out?: string;
        owner?: string;
        state?: ExportableState;
        domain?: string;
      }) => {
        // Before anything is read: a path that cannot be written is said at once, not after.
        const out = options.out === undefined ? null : await openOutputOrExit(options.out);
        await withRuntime(
          async (runtime) => {
            const started = performance.now();
            const plan = await planLinkExport(runtime.linkService, operator(BOOTSTRAP_OWNER), {
              owner: options.owner,
              state: options.state,
              domain: options.domain,
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
              if (out === null) {
                await writeTo(rows, process.stdout);
              } else {
                await writeFileAtomically(rows, out);
              }
            } catch (error) {
              // The store failing mid-way is the store's error, said as such by withRuntime.
              if (out === null || isHopError(error)) throw error;
              // Returned, not exited: the runtime still closes.
              bar.log(`hop: cannot write ${out.file}: ${reasonOf(error)}`);
              process.exitCode = EXIT_WRITE_FAILED;
              return;
            } finally {
              bar.stop();
            }
            const seconds = ((performance.now() - started) / 1000).toFixed(1);
            const where = options.out === undefined ? '' : ` to ${options.out}`;
            process.stderr.write(`exported ${written} links${where} in ${seconds} s\n`);
          },
          { readOnly: true },
        );
      },
    );
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

/** Exit status when the output file cannot be opened: nothing was exported. */
const EXIT_UNUSABLE_FILE = 2;
/** Exit status when writing it failed part way: the file was left as it was. */
const EXIT_WRITE_FAILED = 1;

interface OutputFile {
  readonly file: string;
  /** `<file>.tmp`, open for writing. */
  readonly partial: string;
  readonly handle: FileHandle;
}

/** Opens `<file>.tmp` for writing, or says why it cannot and exits. */
async function openOutputOrExit(file: string): Promise<OutputFile> {
  try {
    // Renaming over a folder would fail only at the end, after the whole export.
    const existing = await stat(file).catch(() => null);
    if (existing?.isDirectory() === true) {
      throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
    }
    const partial = `${file}.tmp`;
    const handle = await open(partial, 'w');
    // However the command ends (a store that cannot be opened exits at once), no partial
    // file is left behind; after the rename there is none to remove.
    process.once('exit', () => {
      rmSync(partial, { force: true });
    });
    return { file, partial, handle };
  } catch (error) {
    process.stderr.write(`hop: cannot write ${file}: ${reasonOf(error)}\n`);
    process.exit(EXIT_UNUSABLE_FILE);
  }
}

const WRITE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return WRITE_ERRORS[code] ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Written under another name and renamed, so a file of that name is always complete; the
 * partial file of a write that fails goes when the process exits (`openOutputOrExit`).
 */
async function writeFileAtomically(rows: Readable, out: OutputFile): Promise<void> {
  await pipeline(rows, stringify(), out.handle.createWriteStream());
  await rename(out.partial, out.file);
}
