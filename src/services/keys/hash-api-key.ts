import { createHash } from 'node:crypto';

/**
 * Keys are long random secrets, so a fast hash is enough: there is nothing to brute-force
 * that would be easier than guessing the key itself. Only the hash is stored.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What is shown of a key in listings: enough to tell keys apart, useless to an attacker. */
export function keyPrefix(key: string): string {
  return key.slice(0, 8);
}
