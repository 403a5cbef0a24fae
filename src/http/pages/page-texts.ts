/** The languages hop's own pages are written in; English is the fallback (ADR 0092). */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

export interface PageTexts {
  /** The miss page's title and heading. */
  readonly missTitle: string;
  /** The sentence: one line for every kind of miss (SPEC §3). */
  readonly missLine: string;
  /** What `GET /` says hop is. */
  readonly rootLine: string;
}

/** Plain text only: it goes into the HTML as is, so it holds no `<`, `>` or `&`. */
export const PAGE_TEXTS: Readonly<Record<PageLanguage, PageTexts>> = {
  en: {
    missTitle: 'Link not found',
    missLine: 'This link does not exist or is no longer active.',
    rootLine: 'A link shortener: the short links made here lead to their destinations.',
  },
  de: {
    missTitle: 'Link nicht gefunden',
    missLine: 'Dieser Link existiert nicht oder ist nicht mehr aktiv.',
    rootLine: 'Ein Linkverkürzer: Die hier erstellten Kurzlinks führen zu ihrem Ziel.',
  },
  fr: {
    missTitle: 'Lien introuvable',
    missLine: 'Ce lien n’existe pas ou n’est plus actif.',
    rootLine: 'Un raccourcisseur de liens : les liens courts créés ici mènent à leur destination.',
  },
  es: {
    missTitle: 'Enlace no encontrado',
    missLine: 'Este enlace no existe o ya no está activo.',
    rootLine: 'Un acortador de enlaces: los enlaces cortos creados aquí llevan a su destino.',
  },
};
