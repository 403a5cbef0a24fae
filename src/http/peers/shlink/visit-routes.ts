import type { FastifyInstance } from 'fastify';
import {
  listLinkVisits,
  MAX_VISITS_LIMIT,
  type VisitsPage,
} from '../../../services/analytics/list-link-visits.js';
import type { Principal } from '../../../domain/principal.js';
import { linkClicks } from '../../../services/links/list-link-page.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { visitJson, visitsSummaryOf } from './shlink-json.js';
import { domainParam, findShortUrl } from './shlink-links.js';
import { dateParam, pageRequestOf, paginate, stringParam } from './shlink-paging.js';
import { versioned } from './shlink-paths.js';

type Query = Record<string, unknown>;
type StoredVisit = VisitsPage['visits'][number];

/** A short URL's visits from hop's visit log, and the visits overview from click totals. */
export function registerVisitRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of versioned('/short-urls/:shortCode/visits')) {
    app.get<{ Params: { shortCode: string }; Querystring: Query }>(
      path,
      { config: { scope: 'analytics:read' } },
      async (request) => {
        const principal = principalOf(request);
        const query = request.query;
        const page = pageRequestOf(query, null);
        const domain = domainParam(query['domain']);
        const startDate = dateParam(stringParam(query, 'startDate'), 'startDate');
        const endDate = dateParam(stringParam(query, 'endDate'), 'endDate');
        const excludeBots = stringParam(query, 'excludeBots') === 'true';
        const link = await findShortUrl(deps, principal, request.params.shortCode, domain);
        const shortUrl = deps.domainRoutes.shortUrlOf(link.domain, link.code);

        const visits = await walkVisits(deps, principal, link.id, {
          fromMs: startDate ?? 0,
          // Shlink's endDate is inclusive; hop's `to` is not.
          untilMs: endDate === undefined ? deps.analytics.clock.now() + 1 : endDate + 1,
          excludeBots,
        });
        const { data, pagination } = paginate(visits, page);
        return { visits: { data: data.map((visit) => visitJson(visit, shortUrl)), pagination } };
      },
    );
  }

  for (const path of versioned('/visits')) {
    app.get(path, { config: { scope: 'analytics:read' } }, async (request) => {
      // Summed by the store over the caller's links, none of them read.
      const counts = await linkClicks(deps.linkService, principalOf(request), {});
      return {
        visits: {
          nonOrphanVisits: visitsSummaryOf(counts),
          // hop answers a path of no link without counting it: it has no orphan visits.
          orphanVisits: visitsSummaryOf({ clicks: 0, botClicks: 0 }),
        },
      };
    });
  }

  for (const path of versioned('/visits/orphan')) {
    app.get<{ Querystring: Query }>(
      path,
      { config: { scope: 'analytics:read' } },
      async (request) => ({
        visits: paginate([], pageRequestOf(request.query, null)),
      }),
    );
  }
}

/**
 * A link's visits in [fromMs, untilMs), newest first: hop pages its log by cursor, Shlink
 * by number with a total, so the log is walked (retention bounds it). An empty window is
 * no error to Shlink: it has no visits.
 */
async function walkVisits(
  deps: AppDeps,
  principal: Principal,
  linkId: string,
  window: { fromMs: number; untilMs: number; excludeBots: boolean },
): Promise<StoredVisit[]> {
  const visits: StoredVisit[] = [];
  if (window.fromMs >= window.untilMs) return visits;
  let cursor: string | undefined;
  do {
    const found = await listLinkVisits(deps.analytics, principal, linkId, {
      from: new Date(window.fromMs).toISOString(),
      to: new Date(window.untilMs).toISOString(),
      limit: MAX_VISITS_LIMIT,
      cursor,
    });
    visits.push(
      ...(window.excludeBots ? found.visits.filter((visit) => !visit.bot) : found.visits),
    );
    cursor = found.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return visits;
}
