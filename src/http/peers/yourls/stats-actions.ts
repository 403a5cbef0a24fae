import { assertScope } from '../../../domain/principal.js';
import type { LinkPageSortName } from '../../../services/links/list-link-page.js';
import {
  callerTotals,
  readCallerLinks,
  type CallerTotals,
  type CountedLink,
} from './caller-links.js';
import { STATS_NEED_A_FORMAT } from './url-stats-action.js';
import type { YourlsCall } from './yourls-call.js';
import { yourlsLinkStats } from './yourls-link-fields.js';
import { phpIntval } from './yourls-params.js';
import type { YourlsFields, YourlsResult } from './yourls-result.js';

/**
 * `action=stats` (`yourls_get_stats`): `limit` links from `start` in the order `filter`
 * names (`top`, the default: most clicks; `bottom`; `last`: newest; `rand`/`random`), as
 * `link_1` … `link_N`, and the totals. Without a positive `limit` there is no `links` key,
 * and YOURLS's action passes none unless asked. The store sorts, pages and counts: only
 * the links shown are read (ADR 0135).
 */
export async function linkStats(call: YourlsCall): Promise<YourlsResult> {
  assertScope(call.principal, 'links:read');
  const totals = await callerTotals(call.deps, call.principal, call.host);
  const limit = phpIntval(call.params.get('limit'));
  const start = Math.max(0, phpIntval(call.params.get('start')));
  const fields: Record<string, YourlsFields | string> = {};
  if (limit > 0) {
    const chosen = await chosenLinks(call, call.params.get('filter'), start, limit, totals.links);
    if (chosen.length > 0) {
      const links: Record<string, YourlsFields> = {};
      chosen.forEach(({ link, clicks }, index) => {
        links[`link_${index + 1}`] = yourlsLinkStats(link, call.deps.domainRoutes, clicks);
      });
      fields['links'] = links;
    }
  }
  fields['stats'] = totalsFields(totals);
  fields['statusCode'] = '200';
  fields['message'] = 'success';
  return { fields, simple: STATS_NEED_A_FORMAT };
}

/** `action=db-stats` (`yourls_get_db_stats`): the caller's links and their clicks, as numbers. */
export async function dbStats(call: YourlsCall): Promise<YourlsResult> {
  assertScope(call.principal, 'links:read');
  const totals = await callerTotals(call.deps, call.principal, call.host);
  return {
    fields: { 'db-stats': totalsFields(totals), statusCode: '200', message: 'success' },
    simple: STATS_NEED_A_FORMAT,
  };
}

function totalsFields(totals: CallerTotals): YourlsFields {
  return { total_links: totals.links, total_clicks: totals.clicks };
}

/**
 * The links `filter` names: `top` (the default) and `bottom` by people's clicks, `last`
 * newest first, each from `start`. `rand` (YOURLS's `ORDER BY RAND()`) is a run of
 * consecutive links at a random place in the newest-first list, shuffled: as many as
 * YOURLS would give, without reading every link to draw them (ADR 0135, amended).
 */
async function chosenLinks(
  call: YourlsCall,
  filter: string | undefined,
  start: number,
  limit: number,
  total: number,
): Promise<readonly CountedLink[]> {
  const read = (sort: LinkPageSortName, offset: number, count: number) =>
    readCallerLinks(call.deps, call.principal, call.host, { sort, offset, count });
  switch (filter) {
    case 'bottom':
      return read('clicks', start, limit);
    case 'last':
      return read('-created', start, limit);
    case 'rand':
    case 'random': {
      const count = Math.min(limit, Math.max(0, total - start));
      if (count === 0) return [];
      const offset = Math.floor(Math.random() * (total - count + 1));
      return shuffled(await read('-created', offset, count));
    }
    default:
      return read('-clicks', start, limit);
  }
}

/** Fisher–Yates: YOURLS's `ORDER BY RAND()`; not for anything secret. */
function shuffled(counted: readonly CountedLink[]): CountedLink[] {
  const copy = [...counted];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as CountedLink, copy[i] as CountedLink];
  }
  return copy;
}
