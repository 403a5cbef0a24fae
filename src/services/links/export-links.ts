import { effectiveState, type Link } from '../../domain/link.js';
import { smartOptionsJson } from '../../domain/smart/smart-options-json.js';
import type { SmartOptions } from '../../domain/smart/smart-options.js';
import type { Principal } from '../../domain/principal.js';
import { TAG_SEPARATOR, toFileCell, type LINK_FILE_COLUMNS } from './link-file-layout.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { listLinks, MAX_PAGE_SIZE, type ListLinksInput } from './list-links.js';

/** The states an export may ask for; deleted links cannot be imported again, so never. */
export const EXPORTABLE_STATES = ['active', 'disabled', 'expired'] as const;
export type ExportableState = (typeof EXPORTABLE_STATES)[number];

export interface ExportLinksInput {
  readonly owner?: string | undefined;
  /** Only links in this state; without it, every link not deleted and not past its expiry. */
  readonly state?: ExportableState | undefined;
  /** Only links on the short domain with this host (issue 22). */
  readonly domain?: string | undefined;
}

/** One link as a row of a link file: cells in the order of LINK_FILE_COLUMNS. */
export type LinkFileRecord = CellsOf<typeof LINK_FILE_COLUMNS>;
type CellsOf<Columns extends readonly string[]> = { readonly [K in keyof Columns]: string };

export interface LinkExport {
  /** Links found while planning; links changed since may make the records a few more or fewer. */
  readonly count: number;
  /** The links, oldest first, each at most once. */
  records(): AsyncGenerator<LinkFileRecord>;
}

/** What the planning pass keeps of each page: how to read it again, and where it ends. */
interface PageMark {
  readonly cursor: string | undefined;
  readonly lastId: string;
}

/**
 * Plans an export of links as link-file records, oldest first, so that importing the file
 * creates them in the same order and exporting again gives the same file (ADR 0069). The
 * list is paged newest first, so this walks it twice: planning keeps only each page's
 * cursor and last id, then `records()` reads the pages again from the oldest, each
 * reversed. Memory stays a few bytes a page, whatever the number of links.
 *
 * Each link's code goes in the alias column, so a generated code comes back as the same
 * code (as a custom alias from then on). Links created during the export are left out.
 */
export async function planLinkExport(
  deps: LinkServiceDeps,
  principal: Principal,
  input: ExportLinksInput,
): Promise<LinkExport> {
  const query: ListLinksInput = {
    owner: input.owner,
    state: input.state,
    domain: input.domain,
    limit: MAX_PAGE_SIZE,
  };
  const wanted = (link: Link, nowMs: number): boolean =>
    input.state !== undefined || isImportable(link, nowMs);
  const marks: PageMark[] = [];
  let count = 0;
  let cursor: string | undefined;
  let newest: readonly Link[] = [];
  do {
    const page = await listLinks(deps, principal, { ...query, cursor });
    const last = page.items[page.items.length - 1];
    if (last === undefined) break;
    // The newest page is kept as read: read again, it would hold links created since.
    if (marks.length === 0) newest = page.items;
    marks.push({ cursor, lastId: last.id });
    const nowMs = deps.clock.now();
    count += page.items.filter((link) => wanted(link, nowMs)).length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);

  async function* records(): AsyncGenerator<LinkFileRecord> {
    for (let page = marks.length - 1; page >= 0; page--) {
      const mark = marks[page] as PageMark;
      const items =
        page === 0
          ? newest
          : (await listLinks(deps, principal, { ...query, cursor: mark.cursor })).items;
      const nowMs = deps.clock.now();
      for (let i = items.length - 1; i >= 0; i--) {
        const link = items[i] as Link;
        // A link deleted since planning lets an older one into this page: that one was
        // written with its own page already.
        if (link.id < mark.lastId || !wanted(link, nowMs)) continue;
        yield toLinkFileRecord(link, nowMs);
      }
    }
  }
  return { count, records };
}

/**
 * Not deleted (the list never has those), not expired and not past its expiry, disabled
 * ones included: import refuses an expiry in the past.
 */
function isImportable(link: Link, nowMs: number): boolean {
  return link.state !== 'expired' && (link.expiresAt === null || link.expiresAt > nowMs);
}

export function toLinkFileRecord(link: Link, nowMs: number): LinkFileRecord {
  // Times, statuses and states never start like a formula; text, and aliases ("-A1"), may.
  return [
    toFileCell(link.destination),
    toFileCell(link.code),
    link.expiresAt === null ? '' : new Date(link.expiresAt).toISOString(),
    String(link.statusCode),
    toFileCell(link.title ?? ''),
    toFileCell(link.tags.join(TAG_SEPARATOR)),
    effectiveState(link, nowMs),
    ...smartCells(link.smart),
    link.domain,
    link.preview === null ? '' : toFileCell(JSON.stringify(link.preview)),
    link.crawlable ? 'true' : '',
  ];
}

/** A plain link's smart cells: all empty, so its row reads as it did before issue 21. */
const PLAIN_CELLS: SmartCells = ['', '', '', '', '', ''];

/** rules, variants, password_hash, max_clicks, fallback_url, forward_query. */
type SmartCells = readonly [string, string, string, string, string, string];

/**
 * A smart link's options as cells (ADR 0113): rules and variants as the API's JSON, which
 * reads back through the API's parser to the same options; the password by its stored
 * hash, so an import keeps it without anyone knowing it.
 */
function smartCells(smart: SmartOptions | null): SmartCells {
  if (smart === null) return PLAIN_CELLS;
  const json = smartOptionsJson(smart);
  return [
    json.rules.length === 0 ? '' : JSON.stringify(json.rules),
    json.variants.length === 0 ? '' : JSON.stringify(json.variants),
    smart.passwordHash ?? '',
    json.max_clicks === null ? '' : String(json.max_clicks),
    toFileCell(json.fallback_url ?? ''),
    json.forward_query ? 'true' : '',
  ];
}
