import { HopError } from '../../domain/errors.js';
import { principalFor, type Principal } from '../../domain/principal.js';
import type { ApiKeyStore } from '../../ports/api-key-store.js';
import { findKeyBySecret } from './find-key-by-secret.js';

/** The credential of `Authorization: Bearer <credential>` (RFC 6750 §2.1), or undefined. */
export function bearerCredential(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(authorization)?.[1];
}

/** Resolves an `Authorization` header to its principal, or throws `unauthorized`. */
export async function authenticate(
  keys: ApiKeyStore,
  authorization: string | undefined,
): Promise<Principal> {
  if (authorization === undefined || authorization === '') {
    throw new HopError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
  }
  const key = bearerCredential(authorization);
  if (key === undefined) {
    throw new HopError('unauthorized', 'The Authorization header must be "Bearer <key>".');
  }
  const record = await findKeyBySecret(keys, key);
  if (record === null) throw new HopError('unauthorized', 'This API key is unknown or revoked.');
  return principalFor(record);
}
