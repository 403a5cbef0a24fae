/**
 * What a link shows when it is shared (issue 22): the card a link-preview or social crawler
 * renders. Every field is optional; a crawler asking for a link without one sees its title.
 */
export interface LinkPreview {
  readonly title: string | null;
  readonly description: string | null;
  /** An absolute http(s) URL of the card's image. */
  readonly image: string | null;
}

export const PREVIEW_LIMITS = {
  title: 200,
  description: 1000,
  image: 2048,
} as const;
