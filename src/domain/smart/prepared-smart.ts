import { NOT_FOUND, type RedirectOutcome } from '../redirect-outcome.js';
import { compileRules, type CompiledRules } from './compile-rules.js';
import type { SmartOptions } from './smart-options.js';
import { compileVariants, type VariantDraw } from './variants.js';

/**
 * A smart link's options as a cache entry holds them (issue 21): prepared once per fill
 * (CIDRs parsed, weights summed), so a redirect only reads what it needs.
 */
export interface PreparedSmart {
  readonly options: SmartOptions;
  readonly rules: CompiledRules;
  /** Null when the link has no variants. */
  readonly variants: VariantDraw | null;
  /** What an expired or click-exhausted visit gets: a 302 to fallback_url, or the 404. */
  readonly whenSpent: RedirectOutcome;
}

export function prepareSmart(options: SmartOptions): PreparedSmart {
  return {
    options,
    rules: compileRules(options.rules),
    variants: options.variants.length === 0 ? null : compileVariants(options.variants),
    whenSpent:
      options.fallbackUrl === null
        ? NOT_FOUND
        : Object.freeze({ kind: 'fallback', location: options.fallbackUrl }),
  };
}
