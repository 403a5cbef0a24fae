import type { RedirectOutcome } from '../../src/domain/redirect-outcome.js';
import type { Resolution } from '../../src/services/redirect/redirect-resolver.js';

/** The outcome, whether L1 answered, the store was read at once (ADR 0155), or later. */
export async function outcomeOf(result: Resolution): Promise<RedirectOutcome> {
  if (result instanceof Promise) return (await result).outcome;
  return result.kind === 'read' ? result.outcome : result;
}
