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
}

function invalidAlias(detail: string): HopError {
  return new HopError('invalid-alias', detail, { fields: [{ field: 'alias', detail }] });
}
