import type { FastifyInstance } from 'fastify';
import { isHopError } from '../../../domain/errors.js';
import { NO_CLICKS, type ClickCounts } from '../../../domain/click-fold.js';
import type { Principal } from '../../../domain/principal.js';
import { deleteTag } from '../../../services/tags/delete-tag.js';
import { listTags, MAX_TAG_PAGE_SIZE, type TagPage } from '../../../services/tags/list-tags.js';
import { linkClicks } from '../../../services/links/list-link-page.js';
import { renameTag } from '../../../services/tags/rename-tag.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { bodyObject } from './short-url-input.js';
import { visitsSummaryOf } from './shlink-json.js';
import { listParam, pageRequestOf, paginate, stringParam } from './shlink-paging.js';
import { versioned } from './shlink-paths.js';
import { invalidData, tagConflict, tagNotFound } from './shlink-problem.js';

type Query = Record<string, unknown>;
type TagCount = TagPage['tags'][number];
const STATS_ORDER_FIELDS = ['tag', 'shortUrlsCount', 'visits', 'nonBotVisits'] as const;

/** Shlink's tags (list, stats, rename, delete) over hop's tag services (ADR 0119). */
export function registerTagRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of versioned('/tags')) {
    app.get<{ Querystring: Query }>(path, { config: { scope: 'links:read' } }, async (request) => {
      const page = pageRequestOf(request.query, null);
      const descending = orderOf(request.query, ['tag']).descending;
      const names = (
        await allTags(deps, principalOf(request), stringParam(request.query, 'searchTerm'))
      ).map((tag) => tag.name);
      if (descending) names.reverse();
      return { tags: paginate(names, page) };
    });

    app.put(path, { config: { scope: 'links:write' } }, async (request, reply) => {
      const body = bodyObject(request.body);
      const { oldName, newName } = body;
      const bad = [
        ...(typeof oldName === 'string' && oldName !== '' ? [] : ['oldName']),
        ...(typeof newName === 'string' && newName !== '' ? [] : ['newName']),
      ];
      if (bad.length > 0 || typeof oldName !== 'string' || typeof newName !== 'string')
        throw invalidData(bad);
      const principal = principalOf(request);
      // Shlink refuses what hop would merge (ADR 0119): a rename onto a tag in use.
      if ((await findTag(deps, principal, oldName)) === null) throw tagNotFound(oldName);
      if (newName !== oldName && (await findTag(deps, principal, newName)) !== null) {
        throw tagConflict(oldName, newName);
      }
      await renameTag(deps.tagService, principal, oldName, newName);
      return reply.code(204).send();
    });

    app.delete<{ Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request, reply) => {
        const principal = principalOf(request);
        for (const tag of listParam(request.query, 'tags') ?? []) {
          try {
            await deleteTag(deps.tagService, principal, tag);
          } catch (error) {
            // Shlink deletes the tags that exist and says nothing of the others.
            if (!isHopError(error) || error.kind !== 'not-found') throw error;
          }
        }
        return reply.code(204).send();
      },
    );
  }

  for (const path of versioned('/tags/stats')) {
    app.get<{ Querystring: Query }>(path, { config: { scope: 'links:read' } }, async (request) => {
      const page = pageRequestOf(request.query, null);
      const order = orderOf(request.query, STATS_ORDER_FIELDS);
      const principal = principalOf(request);
      const tags = await allTags(deps, principal, stringParam(request.query, 'searchTerm'));
      // hop's tag counts hold people's clicks (ADR 0094); bots' are summed per tag by the
      // store, for every tag only when ordering by all visits, else for the page's tags.
      const everyTag = order.field === 'visits' ? await clicksPerTag(deps, principal, tags) : null;
      const keyOf = (tag: TagCount): string | number =>
        order.field === 'shortUrlsCount'
          ? tag.links
          : order.field === 'visits'
            ? totalVisits(everyTag?.get(tag.name) ?? NO_CLICKS)
            : order.field === 'nonBotVisits'
              ? tag.clicks
              : tag.name;
      const sign = order.descending ? -1 : 1;
      tags.sort((a, b) => {
        const x = keyOf(a);
        const y = keyOf(b);
        return x < y ? -sign : x > y ? sign : 0;
      });
      const { data, pagination } = paginate(tags, page);
      const perTag = everyTag ?? (await clicksPerTag(deps, principal, data));
      const stats = data.map((tag) => ({
        tag: tag.name,
        shortUrlsCount: tag.links,
        visitsSummary: visitsSummaryOf(perTag.get(tag.name) ?? NO_CLICKS),
      }));
      return { tags: { data: stats, pagination } };
    });
  }
}

/** Every tag the caller's links carry, by name, through hop's paged tag list. */
async function allTags(
  deps: AppDeps,
  principal: Principal,
  search: string | undefined,
): Promise<TagCount[]> {
  const tags: TagCount[] = [];
  let cursor: string | undefined;
  do {
    const page = await listTags(deps.tagService, principal, {
      search: search === '' ? undefined : search,
      limit: MAX_TAG_PAGE_SIZE,
      cursor,
    });
    tags.push(...page.tags);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return tags;
}

async function findTag(
  deps: AppDeps,
  principal: Principal,
  name: string,
): Promise<TagCount | null> {
  return (await allTags(deps, principal, name)).find((tag) => tag.name === name) ?? null;
}

/**
 * People's and bots' clicks of each of `tags`, summed by the store over the caller's
 * links carrying it (one sum per tag): hop's tag counts hold people's clicks only (ADR
 * 0094), and Shlink keeps bots apart.
 */
async function clicksPerTag(
  deps: AppDeps,
  principal: Principal,
  tags: readonly TagCount[],
): Promise<Map<string, ClickCounts>> {
  const perTag = new Map<string, ClickCounts>();
  for (const tag of tags) {
    perTag.set(tag.name, await linkClicks(deps.linkService, principal, { tags: [tag.name] }));
  }
  return perTag;
}

function totalVisits(counts: ClickCounts): number {
  return counts.clicks + counts.botClicks;
}

/** `orderBy=field-ASC|DESC` over `fields`; default the tag's name, ascending. */
function orderOf(query: Query, fields: readonly string[]): { field: string; descending: boolean } {
  const value = stringParam(query, 'orderBy');
  if (value === undefined || value === '') return { field: 'tag', descending: false };
  const match = /^([A-Za-z]+)(?:-(ASC|DESC))?$/i.exec(value);
  if (match === null || !fields.includes(match[1] ?? '')) throw invalidData(['orderBy']);
  return { field: match[1] ?? 'tag', descending: match[2]?.toUpperCase() === 'DESC' };
}
