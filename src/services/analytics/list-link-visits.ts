import { HopError, type FieldProblem } from '../../domain/errors.js';
import { queryTimestamp } from './query-timestamp.js';
import { DEFAULT_DOMAIN, storedDomainOf } from '../../domain/link-domain.js';
import type { Principal } from '../../domain/principal.js';
import type { StoredVisit, VisitPosition } from '../../ports/visit-log.js';
import { findVisibleLinkOrThrow } from '../links/find-visible-link.js';
import type { AnalyticsDeps } from './analytics-deps.js';

/** The names a visit's fields go out under, in order: the API's JSON and the export's CSV. */
export const VISIT_FIELDS = [
  'at',
  'country',
  'city',
  'device',
  'os',
  'browser',
  'language',
  'referrer_host',
  'bot',
] as const;

export const DEFAULT_VISITS_LIMIT = 100;
export const MAX_VISITS_LIMIT = 1000;
/** Without `from`: the default retention's span before now. */
const DEFAULT_SPAN_MS = 90 * 86_400_000;

export interface VisitsQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly cursor?: string | undefined;
  readonly limit?: string | number | undefined;
  readonly domain?: string | undefined;
}

export interface VisitsPage {
  readonly visits: readonly StoredVisit[];
  /** Where the next page starts; null after the last. */
  readonly nextCursor: string | null;
}

/**
 * A link's visits in [from, to), newest first (issue 23, ADR 0125), a page at a time with
 * a keyset cursor: the last visit's (at, id, ordinal), opaque to callers.
 */
export async function listLinkVisits(
  deps: AnalyticsDeps,
  principal: Principal,
  id: string,
  query: VisitsQuery,
): Promise<VisitsPage> {
  const { fromMs, toMs, after, limit } = parseVisitsQueryOrThrow(query, deps.clock.now());
  const domain =
    query.domain === undefined ? DEFAULT_DOMAIN : storedDomainOf(query.domain, deps.defaultHost);
  const link = await findVisibleLinkOrThrow(deps.links, principal, id, domain);
  // One more than asked: whether there is a next page, without a second query.
  const found = await deps.visits.page({ linkId: link.id, fromMs, toMs, after, limit: limit + 1 });
  const visits = found.slice(0, limit);
  const last = visits[visits.length - 1];
  return {
    visits,
    nextCursor: found.length > limit && last !== undefined ? encodeCursor(last) : null,
  };
}

interface ParsedVisitsQuery {
  readonly fromMs: number;
  readonly toMs: number;
  readonly after: VisitPosition | null;
  readonly limit: number;
}

export function parseVisitsQueryOrThrow(query: VisitsQuery, nowMs: number): ParsedVisitsQuery {
  const problems: FieldProblem[] = [];
  const toGiven = queryTimestamp('to', query.to, problems);
  const fromGiven = queryTimestamp('from', query.from, problems);
  const limit = query.limit === undefined ? DEFAULT_VISITS_LIMIT : Number(query.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_VISITS_LIMIT) {
    problems.push({
      field: 'limit',
      detail: `must be a whole number from 1 to ${MAX_VISITS_LIMIT}.`,
    });
  }
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
  if (after === undefined) {
    problems.push({ field: 'cursor', detail: 'is not a cursor this API gave.' });
  }
  const toMs = toGiven ?? nowMs + 1;
  const fromMs = fromGiven ?? toMs - DEFAULT_SPAN_MS;
  if (problems.length === 0 && fromMs >= toMs) {
    problems.push({ field: 'from', detail: 'must be earlier than to.' });
  }
  if (problems.length > 0) {
    throw new HopError('invalid-request', problems.map((p) => `${p.field} ${p.detail}`).join(' '), {
      fields: problems,
    });
  }
  return { fromMs, toMs, after: after ?? null, limit };
}

/** `v1.<at>.<id>.<ordinal>` in base64url: opaque, and checked when it comes back. */
function encodeCursor(visit: VisitPosition): string {
  return Buffer.from(`v1.${visit.at}.${visit.id}.${visit.ordinal}`).toString('base64url');
}

/** The position a cursor names; undefined when it is not one. */
function decodeCursor(cursor: string): VisitPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,96}$/.test(cursor)) return undefined;
  const match = /^v1\.(\d{1,16})\.(\d{1,16})\.(\d{1,16})$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  if (match === null) return undefined;
  const at = Number(match[1]);
  const id = Number(match[2]);
  const ordinal = Number(match[3]);
  const whole = Number.isSafeInteger(at) && Number.isSafeInteger(id);
  return whole && Number.isSafeInteger(ordinal) && ordinal >= 1 ? { at, id, ordinal } : undefined;
}
