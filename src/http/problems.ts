import type { ErrorKind, FieldProblem } from '../domain/errors.js';

/** Kinds only the HTTP layer produces: malformed requests that never reach a service. */
export type HttpErrorKind =
  | 'malformed-request'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'internal-error'
  | 'overloaded'
  | 'wrong-password';

export type ProblemKind = ErrorKind | HttpErrorKind;

/** The one table from error kind to HTTP status and title (docs/problems.md explains each). */
export const PROBLEMS: Readonly<Record<ProblemKind, { status: number; title: string }>> = {
  'malformed-request': { status: 400, title: 'Malformed request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  'wrong-password': { status: 401, title: 'Wrong password' },
  forbidden: { status: 403, title: 'Forbidden' },
  'insufficient-scope': { status: 403, title: 'Insufficient scope' },
  'not-found': { status: 404, title: 'Not Found' },
  'alias-taken': { status: 409, title: 'Alias already taken' },
  'domain-exists': { status: 409, title: 'Domain already exists' },
  'domain-in-use': { status: 409, title: 'Domain in use' },
  'idempotency-key-in-use': { status: 409, title: 'Idempotency key in use' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'invalid-request': { status: 422, title: 'Invalid request' },
  'invalid-destination': { status: 422, title: 'Invalid destination' },
  'invalid-alias': { status: 422, title: 'Invalid alias' },
  'invalid-status-code': { status: 422, title: 'Invalid status code' },
  'invalid-expiry': { status: 422, title: 'Invalid expiry' },
  'invalid-cursor': { status: 422, title: 'Invalid cursor' },
  'invalid-webhook-url': { status: 422, title: 'Invalid webhook URL' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'code-space-exhausted': { status: 503, title: 'No free code' },
  'code-pool-exhausted': { status: 503, title: 'Code pool exhausted' },
  'store-unavailable': { status: 503, title: 'Store unavailable' },
  overloaded: { status: 503, title: 'Overloaded' },
};

/** Problem types are stable URNs; docs/problems.md has one heading per kind. */
export function problemType(kind: ProblemKind): string {
  return `urn:hop:problem:${kind}`;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id?: string;
  errors?: FieldProblem[];
}

export function problemBody(
  kind: ProblemKind,
  detail: string,
  requestId: string | undefined,
  fields: readonly FieldProblem[] = [],
): ProblemBody {
  const { status, title } = PROBLEMS[kind];
  const body: ProblemBody = { type: problemType(kind), title, status, detail };
  if (requestId !== undefined) body.request_id = requestId;
  if (fields.length > 0) body.errors = [...fields];
  return body;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
