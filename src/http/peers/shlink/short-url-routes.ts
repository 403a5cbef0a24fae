import type { FastifyInstance } from 'fastify';
import { isHopError } from '../../../domain/errors.js';
import { effectiveState, type Link } from '../../../domain/link.js';
import { NO_CLICKS, type ClickCounts } from '../../../domain/click-fold.js';
import type { Principal } from '../../../domain/principal.js';
import { deleteLink } from '../../../services/links/change-link-state.js';
import { createLink, type CreateLinkInput } from '../../../services/links/create-link.js';
import { updateLink } from '../../../services/links/update-link.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { createOf, editOf } from './short-url-input.js';
import { shortUrlJson } from './shlink-json.js';
import {
  clickTotalsOf,
  domainParam,
  findShortUrl,
  shortUrlsJson,
  walkLinks,
} from './shlink-links.js';
import { dateParam, listParam, pageRequestOf, paginate, stringParam } from './shlink-paging.js';
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
      async (request) =>
        json(
          await findShortUrl(
            deps,
            principalOf(request),
            request.params.shortCode,
            domainParam(request.query['domain']),
          ),
        ),
    );

    app.patch<{ Params: CodeParams; Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request) => {
        const edit = editOf(request.body);
        const principal = principalOf(request);
        const link = await findShortUrl(
          deps,
          principal,
          request.params.shortCode,
          domainParam(request.query['domain']),
        );
        return json(await updateLink(deps.linkService, principal, link.id, edit));
      },
    );

    app.delete<{ Params: CodeParams; Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request, reply) => {
        const principal = principalOf(request);
        const link = await findShortUrl(
          deps,
          principal,
          request.params.shortCode,
          domainParam(request.query['domain']),
        );
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

/**
 * `GET /short-urls`: hop's list walked whole, then Shlink's filters hop's list has not,
 * its order and its numbered page (ADR 0133).
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
  const startDate = dateParam(stringParam(query, 'startDate'), 'startDate');
  const endDate = dateParam(stringParam(query, 'endDate'), 'endDate');
  const excludeMaxVisitsReached = stringParam(query, 'excludeMaxVisitsReached') === 'true';
  const excludePastValidUntil = stringParam(query, 'excludePastValidUntil') === 'true';

  let links = await walkLinks(deps, principal, {
    search: stringParam(query, 'searchTerm') || undefined,
    tags: listParam(query, 'tags'),
    tagsMode,
    // "Exclude any of these" is hop's own; "exclude those carrying all" is filtered here.
    excludeTags: excludeTagsMode === 'all' ? undefined : excludeTags,
    domain:
      domainParam(query['domain']) ??
      (query['domain'] === 'DEFAULT' ? deps.linkService.defaultHost : undefined),
  });
  const now = deps.linkService.clock.now();
  links = links.filter(
    (link) =>
      (startDate === undefined || link.createdAt >= startDate) &&
      (endDate === undefined || link.createdAt <= endDate) &&
      (!excludePastValidUntil || effectiveState(link, now) !== 'expired') &&
      (excludeTagsMode !== 'all' ||
        excludeTags === undefined ||
        !excludeTags.every((tag) => link.tags.includes(tag))),
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
