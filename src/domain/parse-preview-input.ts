import { HopError } from './errors.js';
import { PREVIEW_LIMITS, type LinkPreview } from './link-preview.js';
import type { CheckUrl } from './smart/parse-smart-input.js';
import { FieldProblems, objectOrProblem, refuseUnknownKeys } from './smart/field-problems.js';

const PREVIEW_KEYS = ['title', 'description', 'image'] as const;

/** Controls and invisible format characters; a description may break lines and tab. */
const TITLE_FORBIDDEN = /[\p{Cc}\p{Cf}]/u;
const DESCRIPTION_FORBIDDEN = /[^\P{Cc}\t\n\r]|\p{Cf}/u;

/**
 * A write's `preview` (issue 22), checked: null removes it (and so does a preview with
 * nothing in it); each field is trimmed, empty is null. Every bad field is named at once
 * (`preview.title`, `preview.image` …) in one `invalid-request` (422). The image must be an
 * absolute http(s) URL the destination policy accepts: a card's image is fetched by the
 * crawlers that show it, so it may point nowhere a destination may not.
 */
export function parsePreviewInput(value: unknown, checkUrl: CheckUrl): LinkPreview | null {
  if (value === null) return null;
  const problems = new FieldProblems();
  const object = objectOrProblem(
    value,
    'preview',
    'A preview is an object with title, description and image, or null.',
    problems,
  );
  if (object !== null) refuseUnknownKeys(object, PREVIEW_KEYS, 'preview', problems);
  const title = textOf(object?.['title'], 'title', TITLE_FORBIDDEN, problems);
  const description = textOf(
    object?.['description'],
    'description',
    DESCRIPTION_FORBIDDEN,
    problems,
  );
  let image = textOf(object?.['image'], 'image', TITLE_FORBIDDEN, problems);
  if (image !== null) {
    const verdict = checkUrl(image);
    if (verdict.ok) image = verdict.url;
    else problems.add('preview.image', verdict.reason.replace('The destination', 'The image'));
  }
  if (problems.count > 0) {
    const fields = problems.list();
    const detail =
      fields.length === 1
        ? `${fields[0]?.field ?? 'preview'}: ${fields[0]?.detail ?? ''}`
        : `The preview has ${fields.length} problems.`;
    throw new HopError('invalid-request', detail, { fields });
  }
  if (title === null && description === null && image === null) return null;
  return { title, description, image };
}

function textOf(
  value: unknown,
  name: (typeof PREVIEW_KEYS)[number],
  forbidden: RegExp,
  problems: FieldProblems,
): string | null {
  if (value === undefined || value === null) return null;
  const field = `preview.${name}`;
  if (typeof value !== 'string') {
    problems.add(field, 'A string or null.');
    return null;
  }
  const trimmed = value.trim();
  const limit = PREVIEW_LIMITS[name];
  if (trimmed.length > limit) {
    problems.add(field, `At most ${limit} characters.`);
    return null;
  }
  if (forbidden.test(trimmed)) {
    problems.add(field, 'No control characters.');
    return null;
  }
  return trimmed === '' ? null : trimmed;
}
