import { HopError } from '../../domain/errors.js';
import { isTagName } from '../../domain/link-fields.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import type { TagCount } from '../../ports/tag-queries.js';
import type { TagServiceDeps } from './tag-service-deps.js';
import { visibleLinksOf } from './visible-links.js';

export const MAX_TAG_PAGE_SIZE = 100;
export const DEFAULT_TAG_PAGE_SIZE = 50;

export interface ListTagsInput {
  /** Case-insensitive substring of the name. */
  readonly search?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface TagPage {
  readonly tags: readonly TagCount[];
  /** Opaque: hand it back as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * The tags of the links the caller can see (an admin: every owner's), by name, each with
 * how many links carry it and their clicks. Deleted links count for nothing.
 */
export async function listTags(
  deps: TagServiceDeps,
  principal: Principal,
  input: ListTagsInput,
): Promise<TagPage> {
  assertScope(principal, 'links:read');
  const limit = input.limit ?? DEFAULT_TAG_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TAG_PAGE_SIZE) {
    const detail = `limit must be a whole number from 1 to ${MAX_TAG_PAGE_SIZE}.`;
    throw new HopError('invalid-request', detail, { fields: [{ field: 'limit', detail }] });
  }
  // One extra row tells whether another page exists without a count query.
  const rows = await deps.tags.listTags({
    ...visibleLinksOf(principal),
    search: input.search,
    afterName: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
    limit: limit + 1,
  });
  const tags = rows.slice(0, limit);
  const last = tags.at(-1);
  if (rows.length <= limit || last === undefined) return { tags, nextCursor: null };
  return {
    tags,
    nextCursor: Buffer.from(JSON.stringify({ after: last.name })).toString('base64url'),
  };
}

/** The name a cursor continues after: names sort by code point, so a page never shifts. */
function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      const after = (parsed as Record<string, unknown>)['after'];
      if (typeof after === 'string' && isTagName(after)) return after;
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  const detail = 'cursor is not one this service handed out.';
  throw new HopError('invalid-cursor', detail, { fields: [{ field: 'cursor', detail }] });
}
