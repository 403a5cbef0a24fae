import type { ClickCounts } from '../domain/click-fold.js';
import { smartOptionsJson, type SmartOptionsJson } from '../domain/smart/smart-options-json.js';
import { NO_SMART_OPTIONS } from '../domain/smart/smart-options.js';
import { utmOf, type Utm } from '../domain/smart/utm.js';
import { effectiveState, type Link, type LinkState } from '../domain/link.js';
import type { LinkPreview } from '../domain/link-preview.js';
import type { ShortUrls } from '../services/redirect/domain-routes.js';

/** A link on the wire: snake_case as SPEC §3 writes it. */
export interface LinkJson {
  id: string;
  /** The short domain's host (issue 22): HOP_PUBLIC_URL's for the default domain. */
  domain: string;
  code: string;
  short_url: string;
  destination: string;
  status_code: number;
  state: LinkState;
  custom: boolean;
  owner: string;
  title: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  version: number;
  /** Clicks counted so far (folded by the aggregator: seconds behind the redirects). */
  clicks: number;
  /** Crawlers' and link unfurlers' clicks, counted apart from `clicks` (ADR 0094). */
  bot_clicks: number;
  /** Smart-link fields (issue 21); the password never leaves, only whether there is one. */
  rules: SmartOptionsJson['rules'];
  variants: SmartOptionsJson['variants'];
  password_protected: boolean;
  max_clicks: number | null;
  fallback_url: string | null;
  forward_query: boolean;
  /** The destination's utm_* parameters, parsed back from it. */
  utm: Utm;
  /** What link-preview and social crawlers show (issue 22); null: the link's title. */
  preview: LinkPreview | null;
  /** Search engines may index the link (no X-Robots-Tag: noindex; allowed in robots.txt). */
  crawlable: boolean;
}

const PLAIN_JSON = smartOptionsJson(NO_SMART_OPTIONS);

/** The one serializer of links; `state` is the effective state at `nowMs`. */
export function toLinkJson(
  link: Link,
  shortUrls: ShortUrls,
  nowMs: number,
  clicks: ClickCounts,
): LinkJson {
  return {
    id: link.id,
    domain: shortUrls.hostOf(link.domain),
    code: link.code,
    short_url: shortUrls.shortUrlOf(link.domain, link.code),
    destination: link.destination,
    status_code: link.statusCode,
    state: effectiveState(link, nowMs),
    custom: link.custom,
    owner: link.owner,
    title: link.title,
    tags: [...link.tags],
    created_at: new Date(link.createdAt).toISOString(),
    updated_at: new Date(link.updatedAt).toISOString(),
    expires_at: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
    version: link.version,
    clicks: clicks.clicks,
    bot_clicks: clicks.botClicks,
    ...(link.smart === null ? PLAIN_JSON : smartOptionsJson(link.smart)),
    utm: utmOf(link.destination) ?? {},
    preview: link.preview,
    crawlable: link.crawlable,
  };
}
