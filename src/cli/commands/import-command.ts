import type { Command } from 'commander';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import { parseOwner } from '../owner-parser.js';
import { runPeerImport, type PeerImportCommandOptions } from './peer-import-run.js';

const YOURLS_TABLE_PREFIX = 'yourls_';

/** What every `hop import <peer>` says about its rows, its output and its exit status. */
const COMMON_HELP = `
Each link keeps its code, destination, title, tags, creation time, expiry and state (active
or disabled); its click total becomes the link's starting count. A code that is reserved on
hop (api, admin, …) or already held by another link is reported at its row and left as it
is: nothing is ever overwritten. Running the same import again creates nothing twice: the
links it already made are reported unchanged.

Each rejected row is reported on stderr as "<where>: rejected: <why>"; --report FILE writes
every row's outcome as CSV (source,code,outcome,detail). stdout ends with the totals.

Exit status: 0 when every row was imported or unchanged; 1 when a row was rejected or the
import stopped early (the store or the source stopped answering: run it again to go on);
2 when the source could not be read at all (a missing file, an unreachable database, a
missing table).`;

/** `hop import shlink|yourls|kutt`: a peer shortener's links, codes kept (issue 24). */
export function addImportCommand(program: Command): void {
  const command = program
    .command('import')
    .description("import a Shlink, YOURLS or Kutt shortener's links with their codes kept");

  withCommonOptions(
    command
      .command('shlink')
      .description("import the links of a Shlink CSV (its importer's or its web client's export)")
      .argument('<file>', 'the CSV file'),
  )
    .addHelpText(
      'after',
      `
The file's first line names its columns (any case, spaces ignored): longUrl, and shortCode
or shortUrl, at least; domain, title, tags ("," or "|" between them), createdAt and visits
(the click total) when there. The web client's export (createdAt, domain, shortCode,
shortUrl, longUrl, title, tags, visits) imports as it is.
${COMMON_HELP}

Example:
  $ hop import shlink short_urls.csv --dry-run
  $ hop import shlink short_urls.csv`,
    )
    .action(async (file: string, options: PeerImportCommandOptions) => {
      await runPeerImport(async () => (await peerSources()).readShlinkCsv(file), options);
    });

  withCommonOptions(
    command
      .command('yourls')
      .description('import the links of a YOURLS database (its url table and click counts)')
      .requiredOption('--from <url>', 'the YOURLS database: mysql://user:password@host:3306/db')
      .option(
        '--table-prefix <prefix>',
        "YOURLS_DB_PREFIX of the install's config.php",
        YOURLS_TABLE_PREFIX,
      ),
  )
    .addHelpText(
      'after',
      `
Reads <prefix>url: keyword (the code, case kept: "a" and "A" are two links; YOURLS's 1- and
2-character keywords are kept), url, title, timestamp (read as UTC, as YOURLS writes it) and
clicks. The links go on hop's default domain.
${COMMON_HELP}

Example:
  $ hop import yourls --from mysql://yourls:secret@127.0.0.1/yourls --table-prefix yourls_`,
    )
    .action(async (options: PeerImportCommandOptions & { from: string; tablePrefix: string }) => {
      await runPeerImport(
        async () =>
          (await peerSources()).readYourlsDatabase(options.from, {
            tablePrefix: options.tablePrefix,
          }),
        options,
      );
    });

  withCommonOptions(
    command
      .command('kutt')
      .description('import the links of a Kutt database (its links, domains and visit totals)')
      .requiredOption(
        '--from <url>',
        'the Kutt database: postgres://user:password@host/kutt or sqlite:<file>',
      ),
  )
    .addHelpText(
      'after',
      `
Reads links joined with domains: address (the code), target, description (the title),
expire_in, banned (a disabled link; so are the links of a banned domain), visit_count and
password: a link with a password asks for the same one on hop (its bcrypt hash is kept).
A schema other than public is named the libpq way:
  postgres://host/kutt?options=-c%20search_path%3Dkutt
${COMMON_HELP}

Example:
  $ hop import kutt --from sqlite:/var/lib/kutt/db/data
  $ hop import kutt --from postgres://kutt:secret@127.0.0.1/kutt`,
    )
    .action(async (options: PeerImportCommandOptions & { from: string }) => {
      await runPeerImport(
        async () => (await peerSources()).readKuttDatabase(options.from),
        options,
      );
    });
}

function withCommonOptions(command: Command): Command {
  return command
    .option('--owner <owner>', 'owner of the links', parseOwner, BOOTSTRAP_OWNER)
    .option('--dry-run', 'check every row and report it as a real run would, writing nothing')
    .option('--report <file>', "write every row's outcome to this CSV file");
}

/**
 * The readers, loaded when an import runs: they bring mysql2 and pg, which no other command
 * of the embedded store loads (test/e2e/cli-loads.test.ts).
 */
function peerSources(): Promise<typeof import('../../main/peer-sources.js')> {
  return import('../../main/peer-sources.js');
}
