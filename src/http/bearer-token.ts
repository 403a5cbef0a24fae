import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerCredential } from '../services/keys/authenticate.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * A check of `Authorization: Bearer <token>` against one configured token (HOP_METRICS_TOKEN),
 * read as the API reads its keys: both sides hashed to 32 bytes and compared in constant
 * time, so neither the token's characters nor its length show in the time a refusal takes.
 * With no token configured, every request passes.
 */
export function bearerTokenCheck(
  token: string | undefined,
): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const given = bearerCredential(authorization);
    return timingSafeEqual(digest(given ?? ''), expected) && given !== undefined;
  };
}

/** The 401's detail, the same from `hop serve` and `hop worker`. */
export const METRICS_TOKEN_REQUIRED =
  'The metrics need Authorization: Bearer with the token set in HOP_METRICS_TOKEN.';
