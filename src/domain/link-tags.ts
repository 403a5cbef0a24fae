/** How a list's several tags combine (ADR 0119): links with any of them, or with all. */
export const TAGS_MODES = ['any', 'all'] as const;
export type TagsMode = (typeof TAGS_MODES)[number];

/**
 * `tags` with `from` renamed to `to` in its place; when the link already has `to`, the two
 * merge where the first of them stood (a link never carries a tag twice). Null when the
 * link has no `from`: nothing to change.
 */
export function renameTagIn(
  tags: readonly string[],
  from: string,
  to: string,
): readonly string[] | null {
  if (!tags.includes(from)) return null;
  return [...new Set(tags.map((tag) => (tag === from ? to : tag)))];
}

/** `tags` without `name`; null when the link has no `name`. */
export function removeTagFrom(tags: readonly string[], name: string): readonly string[] | null {
  return tags.includes(name) ? tags.filter((tag) => tag !== name) : null;
}
