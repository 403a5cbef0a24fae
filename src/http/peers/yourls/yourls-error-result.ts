import type { FastifyError } from 'fastify';
import { isHopError, type HopError } from '../../../domain/errors.js';
import { PROBLEMS } from '../../problems.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';
import { plainError, type YourlsResult } from './yourls-result.js';

/** What the caller is told when something unforeseen failed; the log has the rest. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side.';

/**
 * A failure no action answered itself, in YOURLS's plain error shape (`errorCode`,
 * `message`): a key's missing scope is 403 like YOURLS's refused login; hop's other input
 * errors are YOURLS's 400; a body that could not be read is 400; retryable ones keep
 * their status and Retry-After. Undefined for an unforeseen error (a 500).
 */
export function yourlsErrorResult(error: unknown): YourlsResult | undefined {
  if (isHopError(error)) {
    const yourlsStatus = yourlsStatusOf(PROBLEMS[error.kind].status);
    return { ...plainError(yourlsStatus, error.detail), headers: retryHeadersOf(error) };
  }
  // Fastify's and the multipart parser's request errors carry a 4xx statusCode.
  const { statusCode, code, message } = (error ?? {}) as Partial<FastifyError>;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return plainError(
      400,
      code === 'FST_FILES_LIMIT'
        ? 'Files are not accepted: send the parameters as form fields.'
        : `The request could not be read: ${message ?? 'malformed'}`,
    );
  }
  return undefined;
}

/** YOURLS's status for hop's: 403 for any refused key, 404 kept, other input errors 400. */
function yourlsStatusOf(status: number): number {
  if (status === 401) return 403;
  if (status === 403 || status === 404 || status === 429 || status >= 500) return status;
  return 400;
}

/** The rate-limit fields and Retry-After a refusal carries, for any YOURLS answer to it. */
export function retryHeadersOf(error: HopError): Record<string, string> {
  const headers: Record<string, string> = { ...rateLimitHeaders(error.quotas) };
  if (error.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(error.retryAfterSeconds);
  }
  return headers;
}
