import { HopError } from '../domain/errors.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/** The Idempotency-Key header of a create or a bulk call (SPEC §3), if it has one. */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header === 'string' && IDEMPOTENCY_KEY.test(header)) return header;
  const detail = 'Idempotency-Key must be one value of 1 to 128 printable ASCII characters.';
  throw new HopError('invalid-request', detail, { fields: [{ field: 'Idempotency-Key', detail }] });
}
