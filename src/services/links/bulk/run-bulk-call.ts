import { createHash } from 'node:crypto';
import { HopError } from '../../../domain/errors.js';
import { assertScope, type Principal } from '../../../domain/principal.js';
import type { BulkAnswerStore, BulkClaimResult } from '../../../ports/bulk-answers.js';
import type { Clock } from '../../../ports/clock.js';
import { IDEMPOTENCY_WINDOW_MS } from '../create-link.js';
import { hashLinkPassword, verifyLinkPassword } from '../link-password.js';

/**
 * A claimed call that never answered is taken to have died with its process after this
 * long (a call of 1,000 links takes well under a second), and its key may run again.
 */
export const ABANDONED_CLAIM_MS = 5 * 60_000;
/** Void records deleted by each call with a key: the table never outgrows its window. */
const PURGE_PER_CALL = 10;

export interface BulkCallDeps {
  readonly answers: BulkAnswerStore;
  readonly clock: Clock;
}

/** What the call asks: its operation and its body as sent (parsed JSON). */
export interface BulkRequest {
  readonly operation: 'create' | 'patch' | 'delete';
  readonly body: unknown;
}

export interface BulkAnswer {
  /** The answer as `run` rendered it, or as the first call with the key did. */
  readonly answer: string;
  readonly replayed: boolean;
}

/**
 * Runs a bulk call once per Idempotency-Key (ADR 0120): the key is claimed before `run`, so
 * a second call with it never runs alongside or after the first; a replay with the same
 * request gets the first call's answer, one with another request 422. Passwords are not in
 * the fingerprint (an unsalted digest); a salted hash of them is kept beside it instead.
 */
export async function runBulkCall(
  deps: BulkCallDeps,
  principal: Principal,
  idempotencyKey: string | undefined,
  request: BulkRequest,
  run: () => Promise<string>,
): Promise<BulkAnswer> {
  assertScope(principal, 'links:write');
  if (idempotencyKey === undefined) return { answer: await run(), replayed: false };
  const { owner } = principal;
  const secrets: string[] = [];
  const requestHash = fingerprint(request, secrets);
  const secretsText = JSON.stringify(secrets);
  const nowMs = deps.clock.now();
  const notBefore = nowMs - IDEMPOTENCY_WINDOW_MS;
  await deps.answers.purge(notBefore, PURGE_PER_CALL);
  const claim = await deps.answers.claim({
    owner,
    key: idempotencyKey,
    requestHash,
    secretsHash: secrets.length === 0 ? null : await hashLinkPassword(secretsText),
    nowMs,
    notBefore,
    pendingNotBefore: nowMs - ABANDONED_CLAIM_MS,
  });
  if (claim.kind === 'held') {
    return { answer: await heldAnswerOrThrow(claim, requestHash, secretsText), replayed: true };
  }
  let answer: string;
  try {
    answer = await run();
  } catch (error) {
    // Failed as a whole (nothing answered per item): a retry with the key may run.
    await deps.answers.release(owner, idempotencyKey).catch(() => undefined);
    throw error;
  }
  await deps.answers.answer(owner, idempotencyKey, answer);
  return { answer, replayed: false };
}

async function heldAnswerOrThrow(
  held: Extract<BulkClaimResult, { kind: 'held' }>,
  requestHash: string,
  secretsText: string,
): Promise<string> {
  const sameSecrets =
    held.secretsHash === null || (await verifyLinkPassword(secretsText, held.secretsHash));
  if (held.requestHash !== requestHash || !sameSecrets) {
    throw new HopError(
      'idempotency-key-reused',
      'This Idempotency-Key was already used with a different request.',
    );
  }
  if (held.answer === null) {
    throw new HopError(
      'idempotency-key-in-use',
      'A call with this Idempotency-Key is still running; retry shortly for its answer.',
      { retryable: true, retryAfterSeconds: 1 },
    );
  }
  return held.answer;
}

/**
 * A stable fingerprint of the call: key order does not matter. Every string `password` is
 * replaced by `true` (its presence) and collected into `secrets`, in document order.
 */
function fingerprint(request: BulkRequest, secrets: string[]): string {
  const canonical = JSON.stringify([request.operation, canonicalOf(request.body, secrets)]);
  return createHash('sha256').update(canonical).digest('hex');
}

function canonicalOf(value: unknown, secrets: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => canonicalOf(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(
    entries.map(([name, field]) => {
      if (name === 'password' && typeof field === 'string') {
        secrets.push(field);
        return [name, true];
      }
      return [name, canonicalOf(field, secrets)];
    }),
  );
}
