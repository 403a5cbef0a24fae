/**
 * Every failure the domain and services can report, as a stable kebab-case slug.
 * The HTTP layer maps each kind to a status in one table (src/http/problems.ts);
 * nothing below `http/` knows about status codes.
 */
import type { QuotaReading } from './quota.js';

export const ERROR_KINDS = [
  'invalid-request',
  'invalid-destination',
  'invalid-alias',
  'invalid-status-code',
  'invalid-expiry',
  'invalid-cursor',
  'invalid-webhook-url',
  'idempotency-key-reused',
  'idempotency-key-in-use',
  'unauthorized',
  'forbidden',
  'insufficient-scope',
  'not-found',
  'alias-taken',
  'domain-exists',
  'domain-in-use',
  'rate-limited',
  'code-space-exhausted',
  'code-pool-exhausted',
  'store-unavailable',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** One problem with one input field, reported alongside the error. */
export interface FieldProblem {
  readonly field: string;
  readonly detail: string;
}

export interface HopErrorOptions {
  readonly fields?: readonly FieldProblem[];
  readonly retryAfterSeconds?: number;
  /** True when the same call may succeed later (timeouts, a store that is down). */
  readonly retryable?: boolean;
  readonly cause?: unknown;
  /** Rate-limit policies the request was counted against, for the RateLimit fields. */
  readonly quotas?: readonly QuotaReading[];
}

export class HopError extends Error {
  readonly kind: ErrorKind;
  readonly detail: string;
  readonly fields: readonly FieldProblem[];
  readonly retryAfterSeconds: number | undefined;
  readonly retryable: boolean;
  readonly quotas: readonly QuotaReading[];

  constructor(kind: ErrorKind, detail: string, options: HopErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HopError';
    this.kind = kind;
    this.detail = detail;
    this.fields = options.fields ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.retryable = options.retryable ?? false;
    this.quotas = options.quotas ?? [];
  }
}

export function isHopError(value: unknown): value is HopError {
  return value instanceof HopError;
}
