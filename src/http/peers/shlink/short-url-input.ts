import type { CreateLinkInput } from '../../../services/links/create-link.js';
import type { UpdateLinkInput } from '../../../services/links/update-link.js';
import { dateParam } from './shlink-paging.js';
import { invalidData, malformedBody } from './shlink-problem.js';

type Body = Readonly<Record<string, unknown>>;

/** A create as hop's services take it, and what Shlink-only members asked of the adapter. */
export interface ShlinkCreate {
  readonly input: CreateLinkInput;
  /** `findIfExists`: answer the caller's link to this URL (same slug, domain, tags) if any. */
  readonly findIfExists: boolean;
}

/** The body as a JSON object; another JSON value is a malformed body, none an empty one. */
export function bodyObject(body: unknown): Body {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw malformedBody('The request body must be a JSON object.');
  }
  return body as Body;
}

/**
 * Shlink's create body (`ShortUrlCreation`) as hop's create. Every member hop cannot honour
 * is refused by name rather than dropped: a `validSince`, a `pathPrefix`, a
 * `shortCodeLength` other than the length hop generates now, `deviceLongUrls`. As in
 * Shlink, `forwardQuery` defaults to true and `crawlable` to false.
 */
export function createOf(raw: unknown, generatedLength: number): ShlinkCreate {
  const body = bodyObject(raw);
  const bad: string[] = [];
  const edit = editFields(body, bad);
  const longUrl = body['longUrl'];
  if (typeof longUrl !== 'string' || longUrl.trim() === '') bad.push('longUrl');
  const slug = body['customSlug'];
  if (slug !== undefined && slug !== null && typeof slug !== 'string') bad.push('customSlug');
  const domain = body['domain'];
  if (domain !== undefined && domain !== null && typeof domain !== 'string') bad.push('domain');
  const pathPrefix = body['pathPrefix'];
  if (pathPrefix !== undefined && pathPrefix !== null && pathPrefix !== '') bad.push('pathPrefix');
  const length = body['shortCodeLength'];
  if (length !== undefined && length !== null && length !== generatedLength)
    bad.push('shortCodeLength');
  const findIfExists = body['findIfExists'];
  if (findIfExists !== undefined && findIfExists !== null && typeof findIfExists !== 'boolean') {
    bad.push('findIfExists');
  }
  const devices = body['deviceLongUrls'];
  if (devices !== undefined && devices !== null) bad.push('deviceLongUrls');
  if (bad.length > 0) throw invalidData(bad);

  const smart: Record<string, unknown> = { ...edit.smart };
  smart['forward_query'] ??= true;
  return {
    input: {
      destination: longUrl as string,
      // Shlink turns a slug's spaces into dashes; the rest is hop's alias rules.
      alias: typeof slug === 'string' && slug !== '' ? slug.trim().replaceAll(' ', '-') : null,
      domain: typeof domain === 'string' && domain !== '' && domain !== 'DEFAULT' ? domain : null,
      expiresAt: edit.input.expiresAt ?? null,
      title: edit.input.title ?? null,
      tags: edit.input.tags,
      crawlable: edit.input.crawlable,
      smart: smart,
    },
    findIfExists: findIfExists === true,
  };
}

/** Shlink's edit body (`ShortUrlEdition`) as hop's update; a non-null `validSince` is refused. */
export function editOf(raw: unknown): UpdateLinkInput {
  const body = bodyObject(raw);
  const bad: string[] = [];
  const edit = editFields(body, bad);
  const longUrl = body['longUrl'];
  if (longUrl !== undefined && (typeof longUrl !== 'string' || longUrl.trim() === ''))
    bad.push('longUrl');
  if (bad.length > 0) throw invalidData(bad);
  return {
    ...edit.input,
    ...(typeof longUrl === 'string' ? { destination: longUrl } : {}),
    ...(Object.keys(edit.smart).length > 0 ? { smart: edit.smart } : {}),
  };
}

/** The members an edit and a create share, checked; each bad one is named in `bad`. */
function editFields(
  body: Body,
  bad: string[],
): { input: UpdateLinkInput; smart: Record<string, unknown> } {
  const input: { -readonly [K in keyof UpdateLinkInput]: UpdateLinkInput[K] } = {};
  const smart: Record<string, unknown> = {};
  if (body['validSince'] !== undefined && body['validSince'] !== null) bad.push('validSince');
  const validUntil = body['validUntil'];
  if (validUntil === null) input.expiresAt = null;
  else if (validUntil !== undefined) {
    try {
      const ms = dateParam(validUntil, 'validUntil');
      if (ms !== undefined) input.expiresAt = new Date(ms).toISOString();
    } catch {
      bad.push('validUntil');
    }
  }
  const maxVisits = body['maxVisits'];
  if (maxVisits === null) smart['max_clicks'] = null;
  else if (maxVisits !== undefined) {
    if (typeof maxVisits === 'number' && Number.isSafeInteger(maxVisits) && maxVisits >= 1) {
      smart['max_clicks'] = maxVisits;
    } else bad.push('maxVisits');
  }
  const tags = body['tags'];
  if (tags !== undefined) {
    if (Array.isArray(tags) && tags.every((tag): tag is string => typeof tag === 'string')) {
      input.tags = tags;
    } else bad.push('tags');
  }
  const title = body['title'];
  if (title === null || (typeof title === 'string' && title.trim() === '')) input.title = null;
  else if (typeof title === 'string') input.title = title;
  else if (title !== undefined) bad.push('title');
  for (const [name, target] of [
    ['crawlable', 'crawlable'],
    ['forwardQuery', 'forward_query'],
  ] as const) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') bad.push(name);
    else if (target === 'crawlable') input.crawlable = value;
    else smart[target] = value;
  }
  return { input, smart };
}
