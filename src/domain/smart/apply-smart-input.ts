import type { SmartInput } from './parse-smart-input.js';
import type { SmartOptions } from './smart-options.js';

/**
 * A link's options after a create (from NO_SMART_OPTIONS) or an update: each field the
 * input has replaces the current one, absent fields stay (issue 21). The password arrives
 * hashed: `undefined` keeps the current hash, null removes it. UTM edits the destination,
 * not the options: see applyUtm.
 */
export function applySmartInput(
  current: SmartOptions,
  input: SmartInput,
  passwordHash: string | null | undefined,
): SmartOptions {
  return {
    rules: input.rules ?? current.rules,
    variants: input.variants ?? current.variants,
    passwordHash: passwordHash === undefined ? current.passwordHash : passwordHash,
    maxClicks: input.maxClicks === undefined ? current.maxClicks : input.maxClicks,
    fallbackUrl: input.fallbackUrl === undefined ? current.fallbackUrl : input.fallbackUrl,
    forwardQuery: input.forwardQuery ?? current.forwardQuery,
  };
}
