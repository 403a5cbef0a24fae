import type { Link } from '../../../domain/link.js';
import type { ShortUrls } from '../../../services/redirect/domain-routes.js';
import type { YourlsFields } from './yourls-result.js';

/**
 * The creator's address YOURLS keeps with each link. hop does not keep who made a link
 * from where, so every link says it is not known (ADR 0135).
 */
export const UNKNOWN_CREATOR_IP = '';

/** A time as YOURLS's `timestamp` column prints it, `YYYY-MM-DD HH:MM:SS`, in UTC (ADR 0135). */
export function yourlsTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A link's title as YOURLS would hold it: the one given, else the long URL (what YOURLS
 * stores when it cannot read the page's title; hop never fetches it).
 */
export function yourlsTitle(link: Link): string {
  return link.title ?? link.destination;
}

/**
 * A link as `url-stats` and `stats` list it (`yourls_get_keyword_stats`): clicks as a
 * string, as they come from YOURLS's database; people's clicks, as /v1's `clicks`.
 */
export function yourlsLinkStats(link: Link, shortUrls: ShortUrls, clicks: number): YourlsFields {
  return {
    shorturl: shortUrls.shortUrlOf(link.domain, link.code),
    url: link.destination,
    title: yourlsTitle(link),
    timestamp: yourlsTimestamp(link.createdAt),
    ip: UNKNOWN_CREATOR_IP,
    clicks: String(clicks),
  };
}
