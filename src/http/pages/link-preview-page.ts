import { createHash } from 'node:crypto';
import type { LinkPreview } from '../../domain/link-preview.js';
import { CONSOLE_HEADERS } from '../console/console-headers.js';
import { escapeHtml } from './escape-html.js';
import { renderDocument } from './visitor-pages.js';

/** What `GET /{code}+` shows of a link (ADR 0122). */
export interface LinkPreviewView {
  readonly code: string;
  readonly shortUrl: string;
  readonly preview: LinkPreview | null;
  readonly title: string | null;
  /** Null for a password link: its destination is for those who know the password. */
  readonly destination: string | null;
  /** Rules or variants may send some visitors elsewhere than `destination`. */
  readonly mayVary: boolean;
  /** The short URL's QR code, an SVG drawing (no script, no style). */
  readonly qrSvg: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}' +
  '.destination{overflow-wrap:anywhere;font-family:ui-monospace,monospace;padding:.5rem;' +
  'background:#f4f4f4}.qr svg{width:200px;height:200px}.button{display:inline-block;' +
  'padding:.5rem 1.25rem;background:#1a5fb4;color:#fff;text-decoration:none;border-radius:.25rem}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No script; this one style; the QR code inline (nothing is loaded). */
export const LINK_PREVIEW_CSP =
  `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'none'; ` +
  "frame-ancestors 'none'; base-uri 'none'";

/** The page's headers, but its length: never kept, never indexed (a link can change). */
export const LINK_PREVIEW_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CONSOLE_HEADERS,
  'content-security-policy': LINK_PREVIEW_CSP,
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'private, no-store',
  'x-robots-tag': 'noindex',
});

/**
 * A link's public preview page (issue 22, ADR 0122): where it goes, its title, its QR code
 * and a button on. The button goes to the short link itself, so the visit is counted there
 * and the link's own rules (or its password form) decide where it ends.
 */
export function renderLinkPreviewPage(view: LinkPreviewView): string {
  const title = view.preview?.title ?? view.title ?? 'Where this link goes';
  const description = view.preview?.description ?? null;
  const shortUrl = escapeHtml(view.shortUrl);
  const body = [
    ...(description === null ? [] : [`<p>${escapeHtml(description)}</p>`]),
    ...(view.destination === null
      ? ['<p>This link is protected by a password; it shows where it goes after the password.</p>']
      : [
          '<p>This link goes to:</p>',
          `<p class="destination">${escapeHtml(view.destination)}</p>`,
          ...(view.mayVary ? ['<p>Some visitors are sent elsewhere by its rules.</p>'] : []),
        ]),
    `<p class="qr">${view.qrSvg.replace('<svg ', `<svg role="img" aria-label="QR code of ${shortUrl}" `)}</p>`,
    `<p>${shortUrl}</p>`,
    `<p><a class="button" href="/${escapeHtml(view.code)}">Continue</a></p>`,
  ];
  return renderDocument('en', escapeHtml(title), body, [`<style>${STYLE}</style>`]);
}
