import type { LinkPreview } from '../../domain/link-preview.js';
import { escapeHtml } from './escape-html.js';

/** What a link's card shows (ADR 0121). */
export interface LinkCard {
  /** The link's preview, or null: then its title (or its destination) is the card's title. */
  readonly preview: LinkPreview | null;
  readonly title: string | null;
  readonly shortUrl: string;
  readonly destination: string;
  /** Search engines may index it (`crawlable`): no noindex. */
  readonly crawlable: boolean;
}

/**
 * No script, no style, nothing to load: the card's image is metadata the crawler fetches,
 * never the page.
 */
export const LINK_CARD_CSP =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The page a link-preview or social crawler gets instead of the redirect (issue 22, ADR
 * 0121): Open Graph (https://ogp.me) and X card tags, and a link onward. `og:url` is the
 * short URL, not the destination: Facebook and others read the tags of `og:url`'s page when
 * it is another, which would replace the card with the destination's own.
 */
export function renderLinkCard(card: LinkCard): string {
  const title = card.preview?.title ?? card.title ?? card.destination;
  const description = card.preview?.description ?? null;
  const image = card.preview?.image ?? null;
  const meta = (attribute: 'property' | 'name', key: string, value: string | null) =>
    value === null ? [] : [`<meta ${attribute}="${key}" content="${escapeHtml(value)}">`];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    ...(card.crawlable ? [] : ['<meta name="robots" content="noindex">']),
    `<title>${escapeHtml(title)}</title>`,
    ...meta('name', 'description', description),
    ...meta('property', 'og:type', 'website'),
    ...meta('property', 'og:title', title),
    ...meta('property', 'og:description', description),
    ...meta('property', 'og:image', image),
    ...meta('property', 'og:url', card.shortUrl),
    ...meta('name', 'twitter:card', image === null ? 'summary' : 'summary_large_image'),
    ...meta('name', 'twitter:title', title),
    ...meta('name', 'twitter:description', description),
    ...meta('name', 'twitter:image', image),
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...(description === null ? [] : [`<p>${escapeHtml(description)}</p>`]),
    `<p><a href="${escapeHtml(card.destination)}">${escapeHtml(card.destination)}</a></p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
