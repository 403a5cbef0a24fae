import { isPossibleCode, MAX_CODE_LENGTH, MIN_CODE_LENGTH } from './code-format.js';
import { HopError } from './errors.js';

/**
 * Paths the service itself answers, or may answer one day; an alias may not shadow them.
 * Compared case-insensitively (SPEC §2).
 */
export const RESERVED_ALIASES: ReadonlySet<string> = new Set([
  'v1',
  'api',
  'admin',
  'static',
  'assets',
  'health',
  'healthz',
  'readyz',
  'metrics',
  'docs',
  'openapi.json',
  'favicon.ico',
  'robots.txt',
  'login',
  'logout',
]);

export function isReservedAlias(alias: string): boolean {
  return RESERVED_ALIASES.has(alias.toLowerCase());
}

/** A ULID as hop writes link ids: 26 characters of Crockford base32, upper case, 0-7 first. */
const LINK_ID_SHAPE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** True for a string shaped like a link id; no alias may be (ADR 0101). */
export function isLinkIdShaped(candidate: string): boolean {
  return LINK_ID_SHAPE.test(candidate);
}

/** Throws `invalid-alias` unless `alias` may be requested as a custom code. */
export function assertValidAlias(alias: string): void {
  if (alias.length < MIN_CODE_LENGTH || alias.length > MAX_CODE_LENGTH) {
    throw invalidAlias(`An alias has ${MIN_CODE_LENGTH} to ${MAX_CODE_LENGTH} characters.`);
  }
  if (!isPossibleCode(alias)) {
    throw invalidAlias('An alias may contain only letters, digits, "_" and "-".');
  }
  if (isReservedAlias(alias)) {
    throw invalidAlias(`"${alias}" is reserved by the service.`);
  }
  if (isLinkIdShaped(alias)) {
    throw invalidAlias(
      `"${alias}" has the shape of a link id (26 characters of upper-case Crockford base32), which the API reads as an id; change a letter's case or the length.`,
    );
  }
}

function invalidAlias(detail: string): HopError {
  return new HopError('invalid-alias', detail, { fields: [{ field: 'alias', detail }] });
}
