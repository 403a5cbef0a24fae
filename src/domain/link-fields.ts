import { HopError } from './errors.js';

export const MAX_TITLE_LENGTH = 200;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 64;

const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u;
const TAG_PATTERN = /^[\p{L}\p{N}_.:-]+$/u;

/** A title is free text for people: bounded, trimmed, without control characters. */
export function normaliseTitle(title: string | null | undefined): string | null {
  if (title === undefined || title === null) return null;
  const trimmed = title.trim();
  if (trimmed.length > MAX_TITLE_LENGTH) {
    throw invalidField('title', `A title has at most ${MAX_TITLE_LENGTH} characters.`);
  }
  if (CONTROL_CHARACTERS.test(trimmed)) {
    throw invalidField('title', 'A title may not contain control characters.');
  }
  return trimmed === '' ? null : trimmed;
}

const CONTROL_CHARACTER_RUNS = /[\p{Cc}\p{Cf}]+/gu;

/**
 * A title someone else wrote (a peer's database, a peer API's client: issue 24), made one
 * hop can hold rather than refused: control characters become spaces, and a title over
 * MAX_TITLE_LENGTH is cut, with `…`, never inside a surrogate pair. Empty: none.
 */
export function fitTitle(title: string | null): string | null {
  if (title === null) return null;
  const cleaned = title.replace(CONTROL_CHARACTER_RUNS, ' ').trim();
  if (cleaned === '') return null;
  if (cleaned.length <= MAX_TITLE_LENGTH) return cleaned;
  let cut = MAX_TITLE_LENGTH - 1;
  const last = cleaned.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${cleaned.slice(0, cut).trimEnd()}…`;
}

/** Tags are short labels for filtering: de-duplicated, in the order given. */
export function normaliseTags(tags: readonly string[] | undefined): readonly string[] {
  if (tags === undefined) return [];
  if (tags.length > MAX_TAGS) throw invalidField('tags', `A link has at most ${MAX_TAGS} tags.`);
  for (const tag of tags) assertValidTag(tag, 'tags');
  return [...new Set(tags)];
}

/** True for a name a tag may have: what assertValidTag accepts. */
export function isTagName(tag: string): boolean {
  return tag.length > 0 && tag.length <= MAX_TAG_LENGTH && TAG_PATTERN.test(tag);
}

export function assertValidTag(tag: string, field: string): void {
  if (!isTagName(tag)) {
    throw invalidField(
      field,
      `A tag has 1 to ${MAX_TAG_LENGTH} letters, digits or the characters "_.:-".`,
    );
  }
}

function invalidField(field: string, detail: string): HopError {
  return new HopError('invalid-request', detail, { fields: [{ field, detail }] });
}
