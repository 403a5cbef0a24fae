import type { Link } from '../../domain/link.js';
import type { IdempotencyRecord, LinkQuery } from '../../ports/link-repository.js';

/** The columns of `links`, in the order both SQL stores read and write them. */
export const LINK_COLUMNS =
  'id, code, owner, destination, status_code, state, custom, title, tags, created_at, updated_at, expires_at, deleted_at, version';

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
    link: JSON.parse(row.response) as Link,
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
