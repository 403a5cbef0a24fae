import type { FastifyInstance } from 'fastify';
import { isHopError } from '../../../domain/errors.js';
import { effectiveState, type Link } from '../../../domain/link.js';
import { NO_CLICKS, type ClickCounts } from '../../../domain/click-fold.js';
import type { Principal } from '../../../domain/principal.js';
import { deleteLink } from '../../../services/links/change-link-state.js';
import { createLink, type CreateLinkInput } from '../../../services/links/create-link.js';
import { listLinkRange, type LinkPageSortName } from '../../../services/links/list-link-page.js';
import { updateLink } from '../../../services/links/update-link.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { createOf, editOf } from './short-url-input.js';
import { shortUrlJson } from './shlink-json.js';
import {
  clickTotalsOf,
  domainParam,
  shortUrlOfRequest,
  shortUrlsJson,
  walkLinks,
  type LinkFilter,
} from './shlink-links.js';
import {
  dateParam,
  listParam,
  pageRequestOf,
  paginate,
  paginated,
  rangeOf,
  stringParam,
  type PageRequest,
} from './shlink-paging.js';
import { versioned } from './shlink-paths.js';
import { invalidData, problemOfHopError } from './shlink-problem.js';

type Query = Record<string, unknown>;
interface CodeParams {
  shortCode: string;
}

/** Shlink lists 10 short URLs a page unless told (`ShortUrlsParams::DEFAULT_ITEMS_PER_PAGE`). */
const DEFAULT_ITEMS_PER_PAGE = 10;
const ORDER_FIELDS = [
  'dateCreated',
  'shortCode',
  'longUrl',
  'title',
  'visits',
  'nonBotVisits',
] as const;
type OrderField = (typeof ORDER_FIELDS)[number];

/** Shlink's short-URL routes (`/short-urls…`) over hop's link services. */
export function registerShortUrlRoutes(app: FastifyInstance, deps: AppDeps): void {
  const json = async (link: Link) => (await shortUrlsJson(deps, [link]))[0];

  for (const path of versioned('/short-urls')) {
    app.get<{ Querystring: Query }>(path, { config: { scope: 'links:read' } }, async (request) => ({
      shortUrls: await listShortUrls(deps, principalOf(request), request.query),
    }));

    app.post(path, { config: { scope: 'links:write' } }, async (request) => {
      const create = createOf(request.body, deps.linkService.codes.length);
      const principal = principalOf(request);
      if (create.findIfExists) {
        const existing = await findExisting(deps, principal, create.input);
        if (existing !== null) return json(existing);
      }
      const made = await createOrProblem(
        deps,
        principal,
        create.input,
        deps.protection.clientOf(request.raw),
      );
      // Shlink answers a create with 200, not 201.
      return json(made);
    });
  }

  for (const path of versioned('/short-urls/shorten')) {
    app.get<{ Querystring: Query }>(
      path,
      { config: { scope: 'links:write', shlinkKeyInQuery: true } },
      async (request, reply) => {
        const longUrl = stringParam(request.query, 'longUrl');
        const create = createOf({ longUrl }, deps.linkService.codes.length);
        const made = await createOrProblem(
          deps,
          principalOf(request),
          create.input,
          deps.protection.clientOf(request.raw),
        );
        const shortUrl = shortUrlJson(made, deps.domainRoutes, NO_CLICKS);
        const format = stringParam(request.query, 'format');
        const plain =
          format === 'txt' || (format === undefined && request.headers.accept === 'text/plain');
        if (plain)
          return reply.header('content-type', 'text/plain; charset=utf-8').send(shortUrl.shortUrl);
        return shortUrl;
      },
    );
  }

  for (const path of versioned('/short-urls/:shortCode')) {
    app.get<{ Params: CodeParams; Querystring: Query }>(
      path,
      { config: { scope: 'links:read' } },
      async (request) => json(await shortUrlOfRequest(deps, request)),
    );

    app.patch<{ Params: CodeParams; Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request) => {
        const edit = editOf(request.body);
        const principal = principalOf(request);
        const link = await shortUrlOfRequest(deps, request);
        return json(await updateLink(deps.linkService, principal, link.id, edit));
      },
    );

    app.delete<{ Params: CodeParams; Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request, reply) => {
        const principal = principalOf(request);
        const link = await shortUrlOfRequest(deps, request);
        await deleteLink(deps.linkService, principal, link.id);
        return reply.code(204).send();
      },
    );
  }
}

/** hop's create, a taken slug answered as Shlink's `non-unique-slug`. */
async function createOrProblem(
  deps: AppDeps,
  principal: Principal,
  input: CreateLinkInput,
  client: string | undefined,
): Promise<Link> {
  try {
    return (await createLink(deps.linkService, principal, input, { client })).link;
  } catch (error) {
    if (!isHopError(error)) throw error;
    throw problemOfHopError(error, {
      customSlug: input.alias ?? undefined,
      domain: input.domain ?? undefined,
    });
  }
}

/**
 * `findIfExists`: the caller's link to the same long URL on the same domain, with the slug
 * and tags asked for when those are given (Shlink matches every member given).
 */
async function findExisting(
  deps: AppDeps,
  principal: Principal,
  input: CreateLinkInput,
): Promise<Link | null> {
  const candidates = await walkLinks(deps, principal, {
    search: input.destination,
    domain: input.domain ?? undefined,
  });
  const wanted = input.tags === undefined ? null : [...new Set(input.tags)].sort().join('\n');
  return (
    candidates.find(
      (link) =>
        link.destination === input.destination &&
        (input.alias == null || link.code === input.alias) &&
        (wanted === null || [...link.tags].sort().join('\n') === wanted),
    ) ?? null
  );
}

/** Shlink's orders the store sorts by (ADR 0097), as hop's sort names. */
const STORE_SORTS: Partial<Record<OrderField, readonly [LinkPageSortName, LinkPageSortName]>> = {
  dateCreated: ['created', '-created'],
  // hop's clicks are people's: Shlink's non-bot visits; its visits count bots too.
  nonBotVisits: ['clicks', '-clicks'],
  visits: ['all_clicks', '-all_clicks'],
};

/**
 * `GET /short-urls`: a numbered page of hop's list with its total, read by the store, in
 * the orders it sorts by; Shlink's filters and orders it has not (dates, expiry, visit
 * limits, all-tags exclusion; long URL, code, title) walk the caller's whole list and
 * filter, sort and page it here (ADR 0133).
 */
async function listShortUrls(deps: AppDeps, principal: Principal, query: Query) {
  const page = pageRequestOf(query, DEFAULT_ITEMS_PER_PAGE);
  if (query['apiKeyName'] !== undefined)
    throw invalidData(
      ['apiKeyName'],
      'hop does not list links by the name of the key that made them.',
    );
  const tagsMode = modeParam(query, 'tagsMode');
  const excludeTagsMode = modeParam(query, 'excludeTagsMode');
  const excludeTags = listParam(query, 'excludeTags');
  const order = orderOf(stringParam(query, 'orderBy'));
  const narrowing: Narrowing = {
    startDate: dateParam(stringParam(query, 'startDate'), 'startDate'),
    endDate: dateParam(stringParam(query, 'endDate'), 'endDate'),
    excludeMaxVisitsReached: stringParam(query, 'excludeMaxVisitsReached') === 'true',
    excludePastValidUntil: stringParam(query, 'excludePastValidUntil') === 'true',
    // "Exclude any of these" is hop's own; "exclude those carrying all" is filtered here.
    excludeAllOf: excludeTagsMode === 'all' ? excludeTags : undefined,
  };
  const filter: LinkFilter = {
    search: stringParam(query, 'searchTerm') || undefined,
    tags: listParam(query, 'tags'),
    tagsMode,
    excludeTags: excludeTagsMode === 'all' ? undefined : excludeTags,
    domain:
      domainParam(query['domain']) ??
      (query['domain'] === 'DEFAULT' ? deps.linkService.defaultHost : undefined),
  };
  // No order: hop's newest first, as before Shlink's own default (ADR 0133).
  const storeSort =
    order.field === null ? (['-created', '-created'] as const) : STORE_SORTS[order.field];
  if (storeSort === undefined || narrows(narrowing)) {
    return walkedPage(deps, principal, filter, narrowing, order, page);
  }
  const found = await listLinkRange(deps.linkService, principal, {
    ...filter,
    sort: order.descending ? storeSort[1] : storeSort[0],
    ...rangeOf(page),
  });
  const { data, pagination } = paginated([...found.items], found.total, page);
  return { data: await shortUrlsJson(deps, data), pagination };
}

/** Shlink's list filters that hop's list has not: applied to the walked list. */
interface Narrowing {
  readonly startDate: number | undefined;
  readonly endDate: number | undefined;
  readonly excludeMaxVisitsReached: boolean;
  readonly excludePastValidUntil: boolean;
  /** Leave out links carrying every one of these tags. */
  readonly excludeAllOf: readonly string[] | undefined;
}

function narrows(narrowing: Narrowing): boolean {
  return (
    narrowing.startDate !== undefined ||
    narrowing.endDate !== undefined ||
    narrowing.excludeMaxVisitsReached ||
    narrowing.excludePastValidUntil ||
    narrowing.excludeAllOf !== undefined
  );
}

/** The caller's whole list walked, narrowed, sorted and paged here. */
async function walkedPage(
  deps: AppDeps,
  principal: Principal,
  filter: LinkFilter,
  narrowing: Narrowing,
  order: { field: OrderField | null; descending: boolean },
  page: PageRequest,
) {
  const { startDate, endDate, excludeMaxVisitsReached, excludePastValidUntil, excludeAllOf } =
    narrowing;
  let links = await walkLinks(deps, principal, filter);
  const now = deps.linkService.clock.now();
  links = links.filter(
    (link) =>
      (startDate === undefined || link.createdAt >= startDate) &&
      (endDate === undefined || link.createdAt <= endDate) &&
      (!excludePastValidUntil || effectiveState(link, now) !== 'expired') &&
      (excludeAllOf === undefined || !excludeAllOf.every((tag) => link.tags.includes(tag))),
  );
  const needsTotals =
    excludeMaxVisitsReached || order.field === 'visits' || order.field === 'nonBotVisits';
  const totals = needsTotals ? await clickTotalsOf(deps, links) : new Map<string, ClickCounts>();
  const countsOf = (link: Link) => totals.get(link.id) ?? NO_CLICKS;
  if (excludeMaxVisitsReached) {
    links = links.filter((link) => {
      const max = link.smart?.maxClicks ?? null;
      const counts = countsOf(link);
      return max === null || counts.clicks + counts.botClicks < max;
    });
  }
  if (order.field !== null) links = sortLinks(links, order.field, order.descending, countsOf);
  const { data, pagination } = paginate(links, page);
  return { data: await shortUrlsJson(deps, data), pagination };
}

function modeParam(query: Query, name: string): 'any' | 'all' | undefined {
  const mode = stringParam(query, name);
  if (mode === undefined || mode === '') return undefined;
  if (mode !== 'any' && mode !== 'all') throw invalidData([name]);
  return mode;
}

/** `orderBy=field-ASC|DESC` (a bare field is ascending); none: hop's newest first. */
function orderOf(value: string | undefined): { field: OrderField | null; descending: boolean } {
  if (value === undefined || value === '') return { field: null, descending: true };
  const match = /^([A-Za-z]+)(?:-(ASC|DESC))?$/i.exec(value);
  const field = match?.[1];
  if (match === null || !(ORDER_FIELDS as readonly string[]).includes(field ?? ''))
    throw invalidData(['orderBy']);
  return { field: field as OrderField, descending: match[2]?.toUpperCase() === 'DESC' };
}

function sortLinks(
  links: readonly Link[],
  field: OrderField,
  descending: boolean,
  countsOf: (link: Link) => ClickCounts,
): Link[] {
  const keyOf = (link: Link): string | number => {
    switch (field) {
      case 'dateCreated':
        return link.createdAt;
      case 'shortCode':
        return link.code;
      case 'longUrl':
        return link.destination;
      case 'title':
        return link.title ?? '';
      case 'visits':
        return countsOf(link).clicks + countsOf(link).botClicks;
      case 'nonBotVisits':
        return countsOf(link).clicks;
    }
  };
  const sign = descending ? -1 : 1;
  // Ties keep hop's order (newest first): Array.prototype.sort is stable.
  return [...links].sort((a, b) => {
    const x = keyOf(a);
    const y = keyOf(b);
    return x < y ? -sign : x > y ? sign : 0;
  });
}
