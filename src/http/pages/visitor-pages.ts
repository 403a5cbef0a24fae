import { isNamed } from '../click-headers.js';
import { CONSOLE_HEADERS } from '../console/console-headers.js';
import { pageLanguage, prefersHtml } from './negotiation.js';
import { PAGE_LANGUAGES, PAGE_TEXTS, type PageLanguage } from './page-texts.js';

/** A page made once at start: its bytes and every header it goes out with. */
export interface PreparedPage {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** A plain page: no script, no style, nothing the console's CSP would refuse. */
function renderPage(language: PageLanguage, title: string, lines: readonly string[]): string {
  return renderDocument(
    language,
    title,
    lines.map((line) => `<p>${line}</p>`),
  );
}

/** One of hop's own pages: `title` as its heading, then `body`; `head` adds to its head. */
export function renderDocument(
  language: PageLanguage,
  title: string,
  body: readonly string[],
  head: readonly string[] = [],
): string {
  return [
    '<!doctype html>',
    `<html lang="${language}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${title}</title>`,
    ...head,
    '</head>',
    '<body>',
    `<h1>${title}</h1>`,
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function preparePage(
  language: PageLanguage,
  html: string,
  overrides: Readonly<Record<string, string>>,
): PreparedPage {
  const body = Buffer.from(html, 'utf8');
  return {
    body,
    headers: Object.freeze({
      ...CONSOLE_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
      'content-language': language,
      'cache-control': 'no-store',
      // The same URL answers problem+json or a page in another language.
      vary: 'Accept, Accept-Language',
      ...overrides,
    }),
  };
}

/** One prepared page per language hop ships. */
export type PagesByLanguage = Readonly<Record<PageLanguage, PreparedPage>>;

/** One page per language, made once; `overrides` replaces or adds headers. */
export function pagesByLanguage(
  render: (language: PageLanguage) => string,
  overrides: Readonly<Record<string, string>> = {},
): PagesByLanguage {
  return Object.fromEntries(
    PAGE_LANGUAGES.map((language) => [
      language,
      preparePage(language, render(language), overrides),
    ]),
  ) as Record<PageLanguage, PreparedPage>;
}

/**
 * The one miss page per language (ADR 0092): unknown, disabled, expired, deleted,
 * impossible and reserved codes get the same bytes and headers (SPEC §3).
 */
const MISS_PAGES = pagesByLanguage((language) => {
  const texts = PAGE_TEXTS[language];
  return renderPage(language, texts.missTitle, [texts.missLine]);
});

/** `GET /` (ADR 0093): hop's name and what it is, nothing about its links. */
export const ROOT_PAGES = pagesByLanguage((language) =>
  renderPage(language, 'hop', [PAGE_TEXTS[language].rootLine]),
);

/** The page in the language the request prefers. */
export function pageIn(pages: PagesByLanguage, acceptLanguage: string | undefined): PreparedPage {
  return pages[pageLanguage(acceptLanguage)];
}

/**
 * The miss page for a request that asks for HTML, or null for one that keeps problem+json.
 * Read from `rawHeaders`, as the click's headers are: a miss does not build `headers`.
 */
export function missPageFor(rawHeaders: readonly string[]): PreparedPage | null {
  let accept: string | undefined;
  let acceptLanguage: string | undefined;
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] ?? '';
    if (accept === undefined && isNamed(name, 'accept')) accept = rawHeaders[index + 1];
    else if (acceptLanguage === undefined && isNamed(name, 'accept-language')) {
      acceptLanguage = rawHeaders[index + 1];
    }
  }
  return prefersHtml(accept) ? pageIn(MISS_PAGES, acceptLanguage) : null;
}
