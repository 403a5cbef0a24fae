import { createHash } from 'node:crypto';
import { pageLanguageOf } from './negotiation.js';
import type { PageLanguage } from './page-texts.js';
import { pagesByLanguage, renderDocument, type PreparedPage } from './visitor-pages.js';

interface PasswordTexts {
  readonly title: string;
  readonly lead: string;
  readonly label: string;
  readonly submit: string;
  readonly wrong: string;
  readonly missing: string;
  readonly tooMany: string;
}

/** Plain text only: it goes into the HTML as is, so it holds no `<`, `>` or `&`. */
const TEXTS: Readonly<Record<PageLanguage, PasswordTexts>> = {
  en: {
    title: 'Password required',
    lead: 'This link is protected by a password.',
    label: 'Password',
    submit: 'Continue',
    wrong: 'That password is not right.',
    missing: 'Enter the password.',
    tooMany: 'Too many tries; wait a few minutes.',
  },
  de: {
    title: 'Passwort erforderlich',
    lead: 'Dieser Link ist durch ein Passwort geschützt.',
    label: 'Passwort',
    submit: 'Weiter',
    wrong: 'Dieses Passwort ist nicht richtig.',
    missing: 'Geben Sie das Passwort ein.',
    tooMany: 'Zu viele Versuche; warten Sie einige Minuten.',
  },
  fr: {
    title: 'Mot de passe requis',
    lead: 'Ce lien est protégé par un mot de passe.',
    label: 'Mot de passe',
    submit: 'Continuer',
    wrong: 'Ce mot de passe n’est pas le bon.',
    missing: 'Saisissez le mot de passe.',
    tooMany: 'Trop d’essais ; attendez quelques minutes.',
  },
  es: {
    title: 'Contraseña necesaria',
    lead: 'Este enlace está protegido con una contraseña.',
    label: 'Contraseña',
    submit: 'Continuar',
    wrong: 'Esa contraseña no es correcta.',
    missing: 'Introduzca la contraseña.',
    tooMany: 'Demasiados intentos; espere unos minutos.',
  },
};

/** The page's only style, inline: the CSP allows exactly these bytes by their hash. */
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}' +
  'label,input,button{display:block;font-size:1rem}input{width:100%;margin:.25rem 0 1rem;' +
  'padding:.5rem;box-sizing:border-box}button{padding:.5rem 1rem}.error{color:#a00}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * No script at all; this one style. `form-action` names http: and https: besides 'self'
 * because browsers check it on the redirect that answers the form too, and the right
 * password is answered with a redirect to the link's destination (ADR 0110).
 */
export const PASSWORD_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self' http: https:; ` +
  "frame-ancestors 'none'; base-uri 'none'";

/**
 * The form posts to the page's own URL (no `action`: the same path and query, so rules
 * that read the query see it after the password too), as `password`.
 */
function renderForm(language: PageLanguage, message: string | null): string {
  const texts = TEXTS[language];
  const error = message === null ? [] : [`<p class="error" id="error" role="alert">${message}</p>`];
  const described = message === null ? '' : ' aria-describedby="error" aria-invalid="true"';
  return renderPage(language, texts.title, [
    `<p>${texts.lead}</p>`,
    ...error,
    '<form method="post">',
    `<label for="password">${texts.label}</label>`,
    `<input id="password" name="password" type="password" autocomplete="current-password" required minlength="4" maxlength="128" autofocus${described}>`,
    `<button type="submit">${texts.submit}</button>`,
    '</form>',
  ]);
}

function renderPage(language: PageLanguage, title: string, body: readonly string[]): string {
  return renderDocument(language, title, body, [`<style>${STYLE}</style>`]);
}

/** The miss page's headers, but this CSP, and only Accept-Language picks the page. */
const PAGE_HEADERS = { 'content-security-policy': PASSWORD_PAGE_CSP, vary: 'Accept-Language' };
const pagesOf = (render: (language: PageLanguage) => string) =>
  pagesByLanguage(render, PAGE_HEADERS);

/** The password pages, made once at start (issue 21), one per language hop ships. */
export const PASSWORD_PAGES = {
  /** 200: the form. */
  form: pagesOf((language) => renderForm(language, null)),
  /** 401: the form again, saying the password was wrong. */
  wrong: pagesOf((language) => renderForm(language, TEXTS[language].wrong)),
  /** 401: the form again, for a post with no password in it. */
  missing: pagesOf((language) => renderForm(language, TEXTS[language].missing)),
  /** 429: no form, until the client's tries come back. */
  tooMany: pagesOf((language) =>
    renderPage(language, TEXTS[language].title, [`<p role="alert">${TEXTS[language].tooMany}</p>`]),
  ),
} as const;

export type PasswordPageKind = keyof typeof PASSWORD_PAGES;

/** The page of `kind` in the language the request's Accept-Language prefers (rawHeaders). */
export function passwordPageFor(
  kind: PasswordPageKind,
  rawHeaders: readonly string[],
): PreparedPage {
  return PASSWORD_PAGES[kind][pageLanguageOf(rawHeaders)];
}
