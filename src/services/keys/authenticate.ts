import { HopError } from '../../domain/errors.js';
import { principalFor, type Principal } from '../../domain/principal.js';
import { findKeyBySecret } from './find-key-by-secret.js';
import { EXPIRED_KEY_DETAIL, hasKeyExpired } from './key-expiry.js';
import type { KeyServiceDeps } from './key-service-deps.js';

/** The credential of `Authorization: Bearer <credential>` (RFC 6750 §2.1), or undefined. */
export function bearerCredential(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(authorization)?.[1];
}

/**
 * Resolves an `Authorization` header to its principal, or throws `unauthorized` (an expired
 * key too: ADR 0118). Notes the key's use, written at most once a minute.
 */
export async function authenticate(
  deps: Pick<KeyServiceDeps, 'keys' | 'clock' | 'uses'>,
  authorization: string | undefined,
): Promise<Principal> {
  if (authorization === undefined || authorization === '') {
    throw new HopError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
  }
  const key = bearerCredential(authorization);
  if (key === undefined) {
    throw new HopError('unauthorized', 'The Authorization header must be "Bearer <key>".');
  }
  return authenticateKey(deps, key);
}

/**
 * Resolves a key's secret, however it arrived (the peers' APIs take it in `X-Api-Key` or a
 * `signature` parameter: issue 24), to its principal, or throws `unauthorized`.
 */
export async function authenticateKey(
  deps: Pick<KeyServiceDeps, 'keys' | 'clock' | 'uses'>,
  key: string,
): Promise<Principal> {
  const record = await findKeyBySecret(deps.keys, key);
  if (record === null) throw new HopError('unauthorized', 'This API key is unknown or revoked.');
  if (hasKeyExpired(record, deps.clock.now())) {
    throw new HopError('unauthorized', EXPIRED_KEY_DETAIL);
  }
  deps.uses.record(record);
  return principalFor(record);
}
