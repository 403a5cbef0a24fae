import { HopError } from '../../domain/errors.js';
import type { Link, LinkState } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import type { LinkServiceDeps } from './link-service-deps.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListLinksInput {
  readonly owner?: string | undefined;
  readonly search?: string | undefined;
  readonly state?: LinkState | undefined;
  readonly tag?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface LinkPage {
  readonly items: readonly Link[];
  /** Opaque: hand it back as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The caller's links, newest first (SPEC §3); an admin sees every owner's, or one owner's
 * with `owner`. Pages are keyed by the last id seen, so inserts never shift a page.
 */
export async function listLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  input: ListLinksInput,
): Promise<LinkPage> {
  if (input.owner !== undefined && !principal.admin && input.owner !== principal.owner) {
    throw new HopError('forbidden', "Only an admin key may list another owner's links.");
  }
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    const detail = `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`;
    throw new HopError('invalid-request', detail, { fields: [{ field: 'limit', detail }] });
  }
  const beforeId = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  // One extra row tells whether another page exists without a count query.
  const rows = await deps.links.listLinks({
    owner: principal.admin ? input.owner : principal.owner,
    search: input.search,
    state: input.state,
    tag: input.tag,
    beforeId,
    limit: limit + 1,
    nowMs: deps.clock.now(),
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(last.id) : null;
  return { items, nextCursor };
}

function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ before: lastId })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'before' in parsed) {
      const before = parsed.before;
      if (typeof before === 'string' && ULID_PATTERN.test(before)) return before;
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  const detail = 'cursor is not one this service handed out.';
  throw new HopError('invalid-cursor', detail, { fields: [{ field: 'cursor', detail }] });
}
