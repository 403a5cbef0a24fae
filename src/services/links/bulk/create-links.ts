import { isHopError } from '../../../domain/errors.js';
import { assertScope, type Principal } from '../../../domain/principal.js';
import type { QuotaReading } from '../../../domain/quota.js';
import { BatchingLinkRepository } from '../batching-link-repository.js';
import {
  createLink,
  type CreateContext,
  type CreateLinkInput,
  type CreateLinkResult,
} from '../create-link.js';
import type { LinkServiceDeps } from '../link-service-deps.js';
import { runItems, type ItemOutcome } from './run-items.js';

/** Links one bulk call may create, change or delete (issue 22). */
export const MAX_BULK_ITEMS = 1000;

export interface CreateLinksResult {
  /** One per input, in its order. */
  readonly outcomes: readonly ItemOutcome<CreateLinkResult>[];
  /** Where the caller stood against the create limits after the last item that was counted. */
  readonly quotas: readonly QuotaReading[];
}

/**
 * Creates each input exactly as `createLink` would alone (ADR 0120): the same checks, the
 * same create limit per link, the same events; one input's refusal is its own outcome. The
 * inserts go to the store together (BatchingLinkRepository: one transaction on SQLite, one
 * statement on PostgreSQL), each still conditional on its code, so a taken alias is that
 * item's 409. Inputs asking for one alias run one after another, so the first gets it, as
 * if the call were made one item at a time.
 */
export async function createLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  inputs: readonly CreateLinkInput[],
  context: Pick<CreateContext, 'client'> = {},
): Promise<CreateLinksResult> {
  assertScope(principal, 'links:write');
  const batched: LinkServiceDeps = {
    ...deps,
    links: new BatchingLinkRepository(deps.links, Math.max(1, inputs.length)),
  };
  let quotas: readonly QuotaReading[] = [];
  const outcomes = await runItems(inputs, {
    concurrency: inputs.length,
    keyOf: (input) => input.alias ?? null,
    run: async (input) => {
      try {
        const result = await createLink(batched, principal, input, { client: context.client });
        if (result.quotas.length > 0) quotas = result.quotas;
        return result;
      } catch (error) {
        if (isHopError(error) && error.quotas.length > 0) quotas = error.quotas;
        throw error;
      }
    },
  });
  return { outcomes, quotas };
}
