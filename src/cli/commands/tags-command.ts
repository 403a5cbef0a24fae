import type { Command } from 'commander';
import { principalFor, type Principal } from '../../domain/principal.js';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import { deleteTag } from '../../services/tags/delete-tag.js';
import {
  DEFAULT_TAG_PAGE_SIZE,
  listTags,
  MAX_TAG_PAGE_SIZE,
} from '../../services/tags/list-tags.js';
import { renameTag } from '../../services/tags/rename-tag.js';
import { operator } from '../operator.js';
import { parseOwner } from '../owner-parser.js';
import { withRuntime } from '../with-runtime.js';

interface OwnerOption {
  readonly owner?: string;
}

/** `hop tags list|rename|delete` (issue 22, ADR 0119): what /v1/tags does, on the data dir. */
export function addTagsCommand(program: Command): void {
  const tags = program
    .command('tags')
    .description("list, rename and delete tags (every owner's, or one owner's with --owner)");

  tags
    .command('list')
    .description('tags by name, with how many links carry each and their clicks')
    .option('--owner <owner>', "only this owner's links", parseOwner)
    .option('--search <text>', 'substring of the name, any case')
    .option('--limit <n>', `tags a page (1-${MAX_TAG_PAGE_SIZE})`, String(DEFAULT_TAG_PAGE_SIZE))
    .option('--cursor <cursor>', 'start after the page that printed this cursor')
    .option('--all', 'every page, not only the first', false)
    .option('--json', 'one JSON object a line, as the API writes tags', false)
    .action(
      async (
        options: OwnerOption & {
          search?: string;
          limit: string;
          cursor?: string;
          all: boolean;
          json: boolean;
        },
      ) => {
        await withRuntime(
          async (runtime) => {
            if (!options.json) process.stdout.write('name  links  clicks\n');
            let cursor = options.cursor;
            for (;;) {
              const page = await listTags(runtime.appDeps.tagService, actor(options), {
                search: options.search,
                limit: Number(options.limit),
                cursor,
              });
              for (const tag of page.tags) {
                process.stdout.write(
                  options.json
                    ? `${JSON.stringify(tag)}\n`
                    : `${tag.name}  ${tag.links}  ${tag.clicks}\n`,
                );
              }
              if (page.nextCursor === null) return;
              if (!options.all) {
                process.stderr.write(
                  `hop: more tags follow: --cursor ${page.nextCursor} for the next page, or --all\n`,
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

  tags
    .command('rename')
    .description('rename a tag on every link; links that have the new name keep it once')
    .argument('<name>', 'the tag as links carry it')
    .argument('<new-name>', 'its new name')
    .option('--owner <owner>', "only this owner's links", parseOwner)
    .action(async (name: string, newName: string, options: OwnerOption) => {
      await withRuntime(async (runtime) => {
        const renamed = await renameTag(runtime.appDeps.tagService, actor(options), name, newName);
        process.stdout.write(`renamed ${name} to ${renamed.name}: ${renamed.links} links\n`);
      });
    });

  tags
    .command('delete')
    .description('remove a tag from every link (the links stay)')
    .argument('<name>', 'the tag as links carry it')
    .option('--owner <owner>', "only this owner's links", parseOwner)
    .action(async (name: string, options: OwnerOption) => {
      await withRuntime(async (runtime) => {
        await deleteTag(runtime.appDeps.tagService, actor(options), name);
        process.stdout.write(`deleted ${name}\n`);
      });
    });
}

/** The operator acts on every owner's links, or as the named owner would (its own only). */
function actor(options: OwnerOption): Principal {
  return options.owner === undefined
    ? operator(BOOTSTRAP_OWNER)
    : principalFor({ id: 'cli', owner: options.owner, admin: false });
}
