import { isHopError, type HopError } from '../domain/errors.js';

/**
 * A refusal on one line (an import's report has one line a row): its detail, and each
 * field problem the detail does not already name, by its path (issue 21: a bad rule is
 * named by its field, such as `rules[0].when.device[0]`).
 */
export function problemLine(error: HopError): string {
  const unsaid = error.fields.filter((problem) => !error.detail.includes(problem.field));
  const [only] = unsaid;
  if (only === undefined) return error.detail;
  if (unsaid.length === 1 && only.detail === error.detail) return `${only.field}: ${only.detail}`;
  return [error.detail, ...unsaid.map(({ field, detail }) => `${field}: ${detail}`)].join(' ');
}

/** What a command says of a failure that stopped it: a HopError's detail, else the message. */
export function errorDetail(error: unknown): string {
  if (isHopError(error)) return error.detail;
  return error instanceof Error ? error.message : String(error);
}
