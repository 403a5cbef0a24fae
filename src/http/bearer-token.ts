import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * A check of `Authorization: Bearer <token>` against one configured token (HOP_METRICS_TOKEN):
 * both sides hashed to 32 bytes and compared in constant time, so neither the token's
 * characters nor its length show in the time a refusal takes.
 */
export function bearerTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const given = BEARER.exec(authorization ?? '')?.[1];
    return timingSafeEqual(digest(given ?? ''), expected) && given !== undefined;
  };
}

/** The 401's detail, the same from `hop serve` and `hop worker`. */
export const METRICS_TOKEN_REQUIRED =
  'The metrics need Authorization: Bearer with the token set in HOP_METRICS_TOKEN.';
