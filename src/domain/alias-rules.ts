import {
  isAliasShaped,
  isPossibleCode,
  MAX_ALIAS_LENGTH,
  MIN_ALIAS_LENGTH,
} from './code-format.js';
import { HopError } from './errors.js';

/**
 * Paths the service itself answers, or may answer one day; an alias (or an imported code)
 * may not shadow them. Compared case-insensitively (SPEC §2). `rest` and `yourls-api.php`
 * are the peers' APIs (issue 24); Kutt's `/api/v2` is under `api`.
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
  'rest',
  'yourls-api.php',
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
  if (alias.length < MIN_ALIAS_LENGTH || alias.length > MAX_ALIAS_LENGTH) {
    throw invalidAlias(`An alias has ${MIN_ALIAS_LENGTH} to ${MAX_ALIAS_LENGTH} characters.`);
  }
  if (!isAliasShaped(alias)) {
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

/**
 * Why a code kept from another shortener cannot be a link's code on hop, or null when it
 * can (issue 24, ADR 0136): it must be a possible code (1–64 of `[A-Za-z0-9._~-]`), not a
 * dot segment (`.` and `..` never reach a server as such: RFC 3986 §5.2.4), not one of our
 * own paths, and not shaped like a link id (which the API would read as an id).
 */
export function importedCodeProblem(code: string): string | null {
  if (!isPossibleCode(code)) {
    return `The code "${code}" cannot be kept: hop's codes are 1 to 64 letters, digits or the characters "-._~".`;
  }
  if (code === '.' || code === '..') {
    return `The code "${code}" cannot be kept: browsers and proxies remove it from a path.`;
  }
  if (isReservedAlias(code)) return `The code "${code}" is reserved by hop (one of its own paths).`;
  if (isLinkIdShaped(code)) {
    return `The code "${code}" has the shape of a link id, which hop's API reads as an id.`;
  }
  return null;
}

function invalidAlias(detail: string): HopError {
  return new HopError('invalid-alias', detail, { fields: [{ field: 'alias', detail }] });
}
