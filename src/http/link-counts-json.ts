import type { LinkCountSnapshot } from '../services/stats/link-counts.js';

/**
 * Links by state on the wire (ADR 0100), for `/v1/stats` and the console's dashboard: exact
 * as of `counted_at`, custom aliases included, the same on every instance. `all` is the
 * dashboard's older name for `total`, kept for clients that read it.
 */
export const linkCountsSchema = {
  type: 'object',
  required: ['total', 'active', 'disabled', 'expired', 'deleted', 'counted_at'],
  properties: {
    total: { type: 'integer', description: 'Links of every state still stored.' },
    active: { type: 'integer', description: 'Links that redirect, custom aliases included.' },
    disabled: { type: 'integer' },
    expired: {
      type: 'integer',
      description: 'Past their expiry, whether or not the sweeper has marked them yet.',
    },
    deleted: { type: 'integer', description: 'Deleted links whose codes are not yet reclaimed.' },
    counted_at: {
      type: 'string',
      format: 'date-time',
      description: 'When these were counted; exact as of then.',
    },
  },
} as const;

export function toLinkCountsJson(counts: LinkCountSnapshot) {
  return {
    total: counts.total,
    active: counts.active,
    disabled: counts.disabled,
    expired: counts.expired,
    deleted: counts.deleted,
    counted_at: new Date(counts.countedAt).toISOString(),
  };
}
