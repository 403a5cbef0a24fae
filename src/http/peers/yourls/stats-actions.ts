import { assertScope } from '../../../domain/principal.js';
import { readCallerLinks, type CountedLink } from './caller-links.js';
import { STATS_NEED_A_FORMAT } from './url-stats-action.js';
import type { YourlsCall } from './yourls-call.js';
import { yourlsLinkStats } from './yourls-link-fields.js';
import { phpIntval } from './yourls-params.js';
import type { YourlsFields, YourlsResult } from './yourls-result.js';

/**
 * `action=stats` (`yourls_get_stats`): `limit` links from `start` in the order `filter`
 * names (`top`, the default: most clicks; `bottom`; `last`: newest; `rand`/`random`), as
 * `link_1` … `link_N`, and the totals. Without a positive `limit` there is no `links` key,
 * and YOURLS's action passes none unless asked.
 */
export async function linkStats(call: YourlsCall): Promise<YourlsResult> {
  assertScope(call.principal, 'links:read');
  const counted = await readCallerLinks(call.deps, call.principal, call.host);
  const limit = phpIntval(call.params.get('limit'));
  const start = Math.max(0, phpIntval(call.params.get('start')));
  const fields: Record<string, YourlsFields | string> = {};
  if (limit > 0) {
    const chosen = ordered(counted, call.params.get('filter')).slice(start, start + limit);
    if (chosen.length > 0) {
      const links: Record<string, YourlsFields> = {};
      chosen.forEach(({ link, clicks }, index) => {
        links[`link_${index + 1}`] = yourlsLinkStats(link, call.deps.domainRoutes, clicks);
      });
      fields['links'] = links;
    }
  }
  fields['stats'] = totalsOf(counted);
  fields['statusCode'] = '200';
  fields['message'] = 'success';
  return { fields, simple: STATS_NEED_A_FORMAT };
}

/** `action=db-stats` (`yourls_get_db_stats`): the caller's links and their clicks, as numbers. */
export async function dbStats(call: YourlsCall): Promise<YourlsResult> {
  assertScope(call.principal, 'links:read');
  const counted = await readCallerLinks(call.deps, call.principal, call.host);
  return {
    fields: { 'db-stats': totalsOf(counted), statusCode: '200', message: 'success' },
    simple: STATS_NEED_A_FORMAT,
  };
}

function totalsOf(counted: readonly CountedLink[]): YourlsFields {
  return {
    total_links: counted.length,
    total_clicks: counted.reduce((sum, { clicks }) => sum + clicks, 0),
  };
}

/** `counted` (newest first) in `filter`'s order; ties in clicks keep newest first. */
function ordered(counted: readonly CountedLink[], filter: string | undefined): CountedLink[] {
  switch (filter) {
    case 'bottom':
      return [...counted].sort((a, b) => a.clicks - b.clicks);
    case 'last':
      return [...counted];
    case 'rand':
    case 'random':
      return shuffled(counted);
    default:
      return [...counted].sort((a, b) => b.clicks - a.clicks);
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
