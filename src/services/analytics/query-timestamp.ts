import type { FieldProblem } from '../../domain/errors.js';
import { rfc3339ToMs } from '../../domain/expiry.js';

/**
 * A query's RFC 3339 `from` or `to` in epoch ms; undefined when absent, or when it is not
 * one (then a problem naming the field is added to `problems`).
 */
export function queryTimestamp(
  field: 'from' | 'to',
  value: string | undefined,
  problems: FieldProblem[],
): number | undefined {
  if (value === undefined) return undefined;
  const ms = rfc3339ToMs(value);
  if (ms === null) {
    problems.push({
      field,
      detail: 'must be an RFC 3339 timestamp such as 2030-01-31T12:00:00Z.',
    });
    return undefined;
  }
  return ms;
}
