import { findNamedLink } from './find-named-link.js';
import { clicksOf } from './link-clicks.js';
import type { YourlsCall } from './yourls-call.js';
import { yourlsLinkStats } from './yourls-link-fields.js';
import type { YourlsResult } from './yourls-result.js';

/** What YOURLS's stats actions answer in `format=simple`. */
export const STATS_NEED_A_FORMAT = 'Need either XML or JSON format for stats';

/** `action=url-stats` (`yourls_get_keyword_stats`): one link with its clicks. */
export async function urlStats(call: YourlsCall): Promise<YourlsResult> {
  const { link } = await findNamedLink(call);
  if (link === null) {
    return {
      fields: { statusCode: '404', message: 'Error: short URL not found' },
      simple: STATS_NEED_A_FORMAT,
    };
  }
  const clicks = await clicksOf(call.deps, link);
  return {
    fields: {
      statusCode: '200',
      message: 'success',
      link: yourlsLinkStats(link, call.deps.domainRoutes, clicks),
    },
    simple: STATS_NEED_A_FORMAT,
  };
}
