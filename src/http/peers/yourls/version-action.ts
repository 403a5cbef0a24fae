import type { YourlsCall } from './yourls-call.js';
import type { YourlsResult } from './yourls-result.js';

/**
 * The YOURLS release whose API hop speaks (ADR 0135): 1.10.4, the newest release, whose
 * actions, messages and shapes these are; clients that gate features on the version see
 * a current one.
 */
export const YOURLS_VERSION = '1.10.4';
/** `YOURLS_DB_VERSION` of that release. */
export const YOURLS_DB_VERSION = '507';

/** `action=version`, with `db_version` when `db` equals 1 (PHP's loose `==`). */
export function version(call: YourlsCall): Promise<YourlsResult> {
  const db = call.params.get('db');
  const fields =
    db !== undefined && isLooselyOne(db)
      ? { version: YOURLS_VERSION, db_version: YOURLS_DB_VERSION }
      : { version: YOURLS_VERSION };
  return Promise.resolve({ fields, simple: YOURLS_VERSION });
}

/** PHP 8's `$value == 1` for a request string: a numeric string whose value is 1. */
function isLooselyOne(value: string): boolean {
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value) && Number(value) === 1;
}
