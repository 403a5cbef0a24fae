import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { effectiveState, LINK_STATES, type LinkState } from '../../domain/link.js';
import { TAGS_MODES, type TagsMode } from '../../domain/link-tags.js';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import { disableLink, enableLink } from '../../services/links/change-link-state.js';
import { createLink } from '../../services/links/create-link.js';
import { findLinkByCodeOrIdOrThrow } from '../../services/links/find-link-by-code-or-id.js';
import { DEFAULT_PAGE_SIZE, listLinks, MAX_PAGE_SIZE } from '../../services/links/list-links.js';
import { seedLinks } from '../../services/links/seed-links.js';
import { linksAsJson } from '../link-json-lines.js';
import { operator } from '../operator.js';
import type { SmartFields } from '../../services/links/smart-link-fields.js';
import {
  addSmartLinkOptions,
  smartFieldsOfOptions,
  SmartOptionError,
  type SmartLinkOptions,
} from '../smart-link-options.js';
import { withRuntime } from '../with-runtime.js';
import { addLinksExportCommand } from './links-export-command.js';
import { addLinksImportCommand } from './links-import-command.js';
import { parseOwner } from '../owner-parser.js';

export function addLinksCommand(program: Command): void {
  const links = program
    .command('links')
    .description('create, list, import, export, disable and enable links');

  addSmartLinkOptions(
    links
      .command('create')
      .description('shorten a URL and print the short URL')
      .argument('<destination>', 'absolute http(s) URL')
      .option('--alias <alias>', 'custom code')
      .option('--owner <owner>', 'owner of the link', parseOwner, BOOTSTRAP_OWNER)
      .option('--status <code>', 'redirect status: 301, 302, 307 or 308')
      .option('--ttl <seconds>', 'lifetime in seconds')
      .option('--title <title>', 'a title for people')
      .option('--tag <tag...>', 'tags')
      .option('--domain <host>', 'a short domain of this service (default: the default domain)'),
  )
    .addHelpText(
      'after',
      `
The smart-link options take what POST /v1/links takes in the same fields (rules,
variants, password, max_clicks, fallback_url, forward_query, utm) and are refused for
the same reasons, each problem named by its field. The password is read from a file or
stdin, never from the command line, where other users of the host could read it.

Examples:
  $ hop links create https://example.com/app --rules rules.json --fallback-url https://example.com/
  $ hop links create https://example.com/ab --variants '[{"destination":"https://a.example/","weight":1},{"destination":"https://b.example/","weight":1}]'
  $ printf '%s' "$SECRET" | hop links create https://example.com/team --password-file -
  $ hop links create https://example.com/sale --max-clicks 100 --utm-source news --forward-query`,
    )
    .action(async (destination: string, options: CreateOptions) => {
      const smart = smartFieldsOrExit(options);
      await withRuntime(
        async (runtime) => {
          const { link } = await createLink(runtime.linkService, operator(options.owner), {
            destination,
            alias: options.alias,
            statusCode: options.status === undefined ? undefined : Number(options.status),
            ttlSeconds: options.ttl === undefined ? undefined : Number(options.ttl),
            title: options.title,
            tags: options.tag,
            domain: options.domain,
            smart,
          });
          process.stdout.write(`${runtime.domainRoutes.shortUrlOf(link.domain, link.code)}\n`);
        },
        { createsDatabase: true },
      );
    });

  links
    .command('list')
    .description('list links, newest first, a page at a time')
    .option('--owner <owner>', 'only this owner')
    .option('--q <text>', 'substring of code, destination or title')
    .option('--domain <host>', 'only links on this short domain')
    .addOption(new Option('--state <state>', 'only links in this state').choices(LINK_STATES))
    .option('--tag <tag...>', 'only links with any of these tags (all of them: --tags-mode all)')
    .addOption(new Option('--tags-mode <mode>', 'how --tag combines').choices(TAGS_MODES))
    .option('--exclude-tag <tag...>', 'only links with none of these tags')
    .option('--limit <n>', `links a page (1-${MAX_PAGE_SIZE})`, String(DEFAULT_PAGE_SIZE))
    .option('--cursor <cursor>', 'start after the page that printed this cursor')
    .option('--all', 'every page, not only the first', false)
    .option('--json', 'one JSON object a line, as the API writes links (clicks included)', false)
    .addHelpText(
      'after',
      `
Text output starts with a header row; the state is the link's state now (a link past its
expiry reads expired). When more links follow, the command says on stderr which --cursor
prints the next page; --all prints every page.

Examples:
  $ hop links list --state disabled
  $ hop links list --all --json > links.jsonl`,
    )
    .action(
      async (options: {
        owner?: string;
        q?: string;
        domain?: string;
        state?: LinkState;
        tag?: string[];
        tagsMode?: TagsMode;
        excludeTag?: string[];
        limit: string;
        cursor?: string;
        all: boolean;
        json: boolean;
      }) => {
        await withRuntime(
          async (runtime) => {
            if (!options.json) process.stdout.write('code  state  clicks  owner  destination\n');
            let cursor = options.cursor;
            for (;;) {
              const page = await listLinks(runtime.linkService, operator(BOOTSTRAP_OWNER), {
                owner: options.owner,
                search: options.q,
                domain: options.domain,
                state: options.state,
                tags: options.tag,
                tagsMode: options.tagsMode,
                excludeTags: options.excludeTag,
                limit: Number(options.limit),
                cursor,
              });
              for (const link of await linksAsJson(runtime, page.items)) {
                process.stdout.write(
                  options.json
                    ? `${JSON.stringify(link)}\n`
                    : `${link.code}  ${link.state}  ${link.clicks}  ${link.owner}  ${link.destination}\n`,
                );
              }
              if (page.nextCursor === null) return;
              if (!options.all) {
                process.stderr.write(
                  `hop: more links follow: --cursor ${page.nextCursor} for the next page, or --all\n`,
                );
                return;
              }
              cursor = page.nextCursor;
            }
          },
          { readOnly: true },
        );
      },
    );

  addLinksImportCommand(links);
  addLinksExportCommand(links);
  addStateCommand(links, 'disable', 'stop a link from redirecting (its code stays taken)');
  addStateCommand(
    links,
    'enable',
    'let a disabled link redirect again (an expired one stays expired)',
  );

  links
    .command('seed')
    .description('load N synthetic links fast, for benchmarks; prints nothing but progress')
    .requiredOption('--count <n>', 'how many links')
    .option('--owner <owner>', 'owner of the links', parseOwner, 'seed')
    .option('--codes <file>', 'also write the codes to this file, one a line')
    .action(async (options: { count: string; owner: string; codes?: string }) => {
      const count = Number(options.count);
      if (!Number.isSafeInteger(count) || count < 1) {
        process.stderr.write('hop: --count must be a positive whole number\n');
        process.exit(2);
      }
      await withRuntime(
        async (runtime) => {
          const started = Date.now();
          const codes = await seedLinks(runtime.linkService, {
            count,
            owner: options.owner,
            destinationBase: 'https://seed.example/',
            onProgress: (done) => {
              process.stderr.write(`\rseeded ${done}/${count}`);
            },
          });
          process.stderr.write(`\nseeded ${codes.length} links in ${Date.now() - started} ms\n`);
          if (options.codes !== undefined) writeFileSync(options.codes, codes.join('\n') + '\n');
        },
        { createsDatabase: true },
      );
    });
}

interface CreateOptions extends SmartLinkOptions {
  readonly alias?: string;
  readonly owner: string;
  readonly status?: string;
  readonly ttl?: string;
  readonly title?: string;
  readonly tag?: string[];
  readonly domain?: string;
}

/** Exit status when an option's file cannot be read or is not JSON, as for a bad option. */
const EXIT_BAD_OPTION = 2;

/** Read before anything is opened: a file that cannot be read changes nothing. */
function smartFieldsOrExit(options: SmartLinkOptions): SmartFields | undefined {
  try {
    return smartFieldsOfOptions(options);
  } catch (error) {
    if (!(error instanceof SmartOptionError)) throw error;
    process.stderr.write(`hop: ${error.message}\n`);
    process.exit(EXIT_BAD_OPTION);
  }
}

/** `links disable` and `links enable`: the API's state changes, for an operator. */
function addStateCommand(links: Command, change: 'disable' | 'enable', description: string): void {
  links
    .command(change)
    .description(description)
    .argument('<code-or-id>', "the link's code, or its id as `hop links list --json` shows it")
    .addHelpText(
      'after',
      `
A running hop hears of the change within about a second: on the embedded store through
its change feed, scaled out through Redis (HOP_REDIS_URL). Scaled out without Redis, an
instance that has the link in its cache goes on as before for up to HOP_L1_TTL (60 s).

Example:
  $ hop links ${change} launch`,
    )
    .action(async (codeOrId: string) => {
      await withRuntime(async (runtime) => {
        const deps = runtime.linkService;
        const admin = operator(BOOTSTRAP_OWNER);
        const found = await findLinkByCodeOrIdOrThrow(deps, admin, codeOrId);
        const link = await (change === 'disable' ? disableLink : enableLink)(deps, admin, found.id);
        // The state a redirect sees now: an expired link enabled is still expired.
        const state = effectiveState(link, deps.clock.now());
        process.stdout.write(`${link.code}  ${state}  ${link.id}\n`);
        if (change === 'enable' && state === 'expired' && link.expiresAt !== null) {
          process.stderr.write(
            `hop: ${link.code} expired at ${new Date(link.expiresAt).toISOString()}: it stays expired\n`,
          );
        }
      });
    });
}
