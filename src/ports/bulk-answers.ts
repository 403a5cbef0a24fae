/**
 * What a claim on an Idempotency-Key of a bulk call found (ADR 0120): the key was free (or
 * its record void) and is now this call's; or a live record holds it, answered or not yet.
 */
export type BulkClaimResult =
  | { readonly kind: 'claimed' }
  | {
      readonly kind: 'held';
      readonly requestHash: string;
      /** A salted hash of the passwords the call carried; null when it carried none. */
      readonly secretsHash: string | null;
      /** The call's answer as its caller rendered it; null while the call is still running. */
      readonly answer: string | null;
    };

export interface BulkClaim {
  readonly owner: string;
  readonly key: string;
  /** Fingerprint of the whole call (operation and body, passwords left out). */
  readonly requestHash: string;
  readonly secretsHash: string | null;
  readonly nowMs: number;
  /** Records made before this (epoch ms) are void: the key may be claimed again. */
  readonly notBefore: number;
  /** Claims still unanswered that were made before this were abandoned (a crash): void too. */
  readonly pendingNotBefore: number;
}

/**
 * The answers of bulk calls made with an Idempotency-Key (ADR 0120): the key is claimed
 * before the call runs, so two calls with one key never both run, and the answer is kept
 * for replays. Apart from the records of single creates, whose answer is one link.
 */
export interface BulkAnswerStore {
  /** Claims owner and key atomically unless a live record holds them; then says what it holds. */
  claim(claim: BulkClaim): Promise<BulkClaimResult>;
  /** Keeps the answer of the call that holds the claim. */
  answer(owner: string, key: string, answer: string): Promise<void>;
  /** Gives up an unanswered claim (the call failed as a whole), so a retry may run. */
  release(owner: string, key: string): Promise<void>;
  /** Deletes at most `limit` records made before `olderThanMs`; returns how many. */
  purge(olderThanMs: number, limit: number): Promise<number>;
}
