import type { PreparedPage } from './pages/visitor-pages.js';
import { PROBLEM_CONTENT_TYPE, problemBody, type ProblemKind } from './problems.js';

/**
 * A problem+json answer made once, for code on plain node:http (no request id there):
 * its bytes and headers, never stored by caches.
 */
export function preparedProblem(kind: ProblemKind, detail: string): PreparedPage {
  const body = Buffer.from(JSON.stringify(problemBody(kind, detail, undefined)));
  return {
    body,
    headers: Object.freeze({
      'content-type': PROBLEM_CONTENT_TYPE,
      'content-length': String(body.length),
      'cache-control': 'no-store',
    }),
  };
}
