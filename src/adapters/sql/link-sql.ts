import type { Link } from '../../domain/link.js';
import {
  NEVER_EXPIRES_SORT_VALUE,
  type IdempotencyRecord,
  type LinkQuery,
} from '../../ports/link-repository.js';

/** The columns of `links`, in the order both SQL stores read and write them. */
export const LINK_COLUMNS =
  'id, code, owner, destination, status_code, state, custom, title, tags, created_at, updated_at, expires_at, deleted_at, version, smart, domain, preview, crawlable';

const LINK_DEFAULTS = { smart: null, domain: '', preview: null, crawlable: false } as const;

/** An idempotency record as both SQL stores keep it: the first answer, as JSON. */
export interface IdempotencyRow {
  owner: string;
  key: string;
  request_hash: string;
  response: string;
  created_at: number;
}

export function recordFromRow(row: IdempotencyRow): IdempotencyRecord {
  return {
    owner: row.owner,
    key: row.key,
    requestHash: row.request_hash,
    // Records kept before smart links (issue 21) have no `smart`, and those kept before
    // domains (issue 22) no domain, preview or crawlable: a plain link on the default domain.
    link: { ...LINK_DEFAULTS, ...(JSON.parse(row.response) as Partial<Link>) } as Link,
    createdAt: row.created_at,
  };
}

/**
 * The effective-state filter of listLinks: expiry is read against the clock, not only the
 * stored state. `now` names the parameter holding the clock reading (`@now`, `$3`).
 */
export function stateCondition(state: LinkQuery['state'], now: () => string): string {
  switch (state) {
    case undefined:
      return "state <> 'deleted'";
    case 'active':
      return `state = 'active' AND (expires_at IS NULL OR expires_at > ${now()})`;
    case 'expired': {
      const at = now();
      return `(state = 'expired' OR (state = 'active' AND expires_at IS NOT NULL AND expires_at <= ${at}))`;
    }
    case 'disabled':
      return "state = 'disabled'";
    case 'deleted':
      return "state = 'deleted'";
    default:
      throw new RangeError(`unknown link state ${String(state)}`);
  }
}

/** The parts of a list query that its order decides. */
export interface ListOrderSql {
  /** Joined after `FROM links` (the click totals, when sorting by clicks); may be ''. */
  readonly join: string;
  /** The keyset condition continuing after `query.after`, or null on a first page. */
  readonly after: string | null;
  readonly orderBy: string;
}

/**
 * ORDER BY and keyset condition of a sorted list (ADR 0097): the sort value, then the id,
 * both in the sort's direction, so (value, id) is a total order a cursor can resume from.
 * Never-expiring links sort as NEVER_EXPIRES_SORT_VALUE; links without clicks as 0.
 * (`all_clicks` adds bots' clicks to people's: Shlink's `visits`.)
 * `clickTotals` names the table of all-time clicks as this connection sees it; `param`
 * binds a value and returns its placeholder.
 */
export function listOrderSql(
  query: LinkQuery,
  clickTotals: string,
  param: (value: unknown) => string,
): ListOrderSql {
  const sort = query.sort ?? { key: 'created', descending: true };
  const direction = sort.descending ? 'DESC' : 'ASC';
  const beyond = sort.descending ? '<' : '>';
  const after = query.after;
  if (sort.key === 'created') {
    return {
      join: '',
      after: after === undefined ? null : `links.id ${beyond} ${param(after.id)}`,
      orderBy: `links.id ${direction}`,
    };
  }
  const value =
    sort.key === 'clicks'
      ? 'coalesce(totals.clicks, 0)'
      : sort.key === 'all_clicks'
        ? '(coalesce(totals.clicks, 0) + coalesce(totals.bot_clicks, 0))'
        : `coalesce(links.expires_at, ${NEVER_EXPIRES_SORT_VALUE})`;
  const join =
    sort.key === 'expires_at' ? '' : `LEFT JOIN ${clickTotals} totals ON totals.link_id = links.id`;
  let condition: string | null = null;
  if (after !== undefined) {
    const at = param(after.value);
    const id = param(after.id);
    condition = `(${value} ${beyond} ${at} OR (${value} = ${at} AND links.id ${beyond} ${id}))`;
  }
  return { join, after: condition, orderBy: `${value} ${direction}, links.id ${direction}` };
}
