import type { ApiKeyRecord } from '../../ports/api-key-store.js';

/** True once the key's `expires_at` has come: from then on it authenticates nothing. */
export function hasKeyExpired(record: Pick<ApiKeyRecord, 'expiresAt'>, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt <= now;
}

export const EXPIRED_KEY_DETAIL = 'This API key has expired.';
