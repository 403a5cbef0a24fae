import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import { hashApiKey } from './hash-api-key.js';

/**
 * The active key a presented secret belongs to, or null. The secret itself is never
 * compared: the store is asked by its SHA-256 (how long that lookup takes says nothing
 * about the secret), and the hash the store returns is checked against ours in constant
 * time, so a store whose index compares loosely (a collation, a prefix) cannot let a
 * near miss in, nor time one.
 */
export async function findKeyBySecret(
  keys: ApiKeyStore,
  secret: string,
): Promise<ApiKeyRecord | null> {
  const hash = hashApiKey(secret);
  const record = await keys.findActiveKeyByHash(hash);
  if (record === null) return null;
  const presented = Buffer.from(hash, 'hex');
  const stored = Buffer.from(record.keyHash, 'hex');
  if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return null;
  return record;
}
