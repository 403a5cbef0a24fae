import { createHash } from 'node:crypto';
import type { LinkPreview } from '../../domain/link-preview.js';
import { CONSOLE_HEADERS } from '../console/console-headers.js';
import { escapeHtml } from './escape-html.js';
import type { PageLanguage } from './page-texts.js';
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

interface PreviewTexts {
  /** The heading of a link without a title (or with a password). */
  readonly untitled: string;
  readonly goesTo: string;
  readonly mayVary: string;
  readonly locked: string;
  /** Before the short URL, the QR code's accessible name. */
  readonly qrOf: string;
  readonly next: string;
}

/** Plain text only: it goes into the HTML as is, so it holds no `<`, `>` or `&`. */
const TEXTS: Readonly<Record<PageLanguage, PreviewTexts>> = {
  en: {
    untitled: 'Where this link goes',
    goesTo: 'This link goes to:',
    mayVary: 'Some visitors are sent elsewhere by its rules.',
    locked: 'This link is protected by a password; it shows where it goes after the password.',
    qrOf: 'QR code of',
    next: 'Continue',
  },
  de: {
    untitled: 'Wohin dieser Link führt',
    goesTo: 'Dieser Link führt zu:',
    mayVary: 'Manche Besucher schickt er nach seinen Regeln anderswohin.',
    locked:
      'Dieser Link ist durch ein Passwort geschützt; wohin er führt, zeigt er nach dem Passwort.',
    qrOf: 'QR-Code von',
    next: 'Weiter',
  },
  fr: {
    untitled: 'Où mène ce lien',
    goesTo: 'Ce lien mène à :',
    mayVary: 'Certains visiteurs sont envoyés ailleurs selon ses règles.',
    locked: 'Ce lien est protégé par un mot de passe ; il montre où il mène après le mot de passe.',
    qrOf: 'QR code de',
    next: 'Continuer',
  },
  es: {
    untitled: 'Adónde lleva este enlace',
    goesTo: 'Este enlace lleva a:',
    mayVary: 'Algunos visitantes van a otro sitio según sus reglas.',
    locked:
      'Este enlace está protegido con una contraseña; muestra adónde lleva después de la contraseña.',
    qrOf: 'Código QR de',
    next: 'Continuar',
  },
};

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

/**
 * The page's headers in each language, but its length: never kept, never indexed (a link
 * can change), and Accept-Language picks the page.
 */
const headersIn = (language: PageLanguage): Readonly<Record<string, string>> =>
  Object.freeze({
    ...CONSOLE_HEADERS,
    'content-security-policy': LINK_PREVIEW_CSP,
    'content-type': 'text/html; charset=utf-8',
    'content-language': language,
    'cache-control': 'private, no-store',
    vary: 'Accept-Language',
    'x-robots-tag': 'noindex',
  });
export const LINK_PREVIEW_HEADERS: Readonly<
  Record<PageLanguage, Readonly<Record<string, string>>>
> = { en: headersIn('en'), de: headersIn('de'), fr: headersIn('fr'), es: headersIn('es') };

/**
 * A link's public preview page (issue 22, ADR 0122): where it goes, its title, its QR code
 * and a button on. The button goes to the short link itself, so the visit is counted there
 * and the link's own rules (or its password form) decide where it ends. The owner's words
 * are shown as written; the page's own lines in the visitor's language (ADR 0092).
 */
export function renderLinkPreviewPage(view: LinkPreviewView, language: PageLanguage): string {
  const texts = TEXTS[language];
  const title = view.preview?.title ?? view.title;
  const description = view.preview?.description ?? null;
  const shortUrl = escapeHtml(view.shortUrl);
  const body = [
    ...(description === null ? [] : [`<p>${escapeHtml(description)}</p>`]),
    ...(view.destination === null
      ? [`<p>${texts.locked}</p>`]
      : [
          `<p>${texts.goesTo}</p>`,
          `<p class="destination">${escapeHtml(view.destination)}</p>`,
          ...(view.mayVary ? [`<p>${texts.mayVary}</p>`] : []),
        ]),
    `<p class="qr">${view.qrSvg.replace('<svg ', `<svg role="img" aria-label="${texts.qrOf} ${shortUrl}" `)}</p>`,
    `<p>${shortUrl}</p>`,
    `<p><a class="button" href="/${escapeHtml(view.code)}">${texts.next}</a></p>`,
  ];
  const heading = title === null ? texts.untitled : escapeHtml(title);
  return renderDocument(language, heading, body, [`<style>${STYLE}</style>`]);
}
