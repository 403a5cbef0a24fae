import { NOT_FOUND, type RedirectOutcome } from '../redirect-outcome.js';
import { compileSmartLink, type CompiledSmartLink } from './choose-destination.js';
import type { SmartOptions } from './smart-options.js';

/**
 * A smart link's options as a cache entry holds them (issue 21): prepared once per fill
 * (rules compiled, variant weights summed), so a redirect only reads what it needs.
 */
export interface PreparedSmart {
  readonly options: SmartOptions;
  readonly compiled: CompiledSmartLink;
  /** What an expired or click-exhausted visit gets: a 302 to fallback_url, or the 404. */
  readonly whenSpent: RedirectOutcome;
}

export function prepareSmart(linkId: string, options: SmartOptions): PreparedSmart {
  return {
    options,
    compiled: compileSmartLink(linkId, options),
    whenSpent:
      options.fallbackUrl === null
        ? NOT_FOUND
        : Object.freeze({ kind: 'fallback', location: options.fallbackUrl }),
  };
}
