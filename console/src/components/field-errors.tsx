import { ApiError } from '../api.js';

/** An API refusal split between a form's fields and what belongs to none of them. */
export interface FormErrors {
  /** The API's rule per field, keyed by the form's field name. */
  readonly byField: ReadonlyMap<string, string>;
  /** The problem's detail, when no field of the form carries it; else ''. */
  readonly general: string;
}

export const NO_ERRORS: FormErrors = { byField: new Map(), general: '' };

/**
 * Files the problem's per-field errors (`errors[]`, src/http/problems.ts) under the form's
 * fields: `tags.2` is the tags field's. The detail goes on top only when no field shows it,
 * so each message is said once.
 */
export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) {
    return { byField: new Map(), general: 'That did not work: try again.' };
  }
  const byField = new Map<string, string>();
  const elsewhere: string[] = [];
  for (const problem of error.fields) {
    const name = problem.field.split('.')[0] ?? problem.field;
    if (fields.includes(name) && !byField.has(name)) byField.set(name, problem.detail);
    else elsewhere.push(`${problem.field}: ${problem.detail}`);
  }
  if (byField.size === 0) return { byField, general: error.message };
  return { byField, general: elsewhere.join(' ') };
}

/** The API's rule under its field, tied to the input by aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} class="field-error" data-testid="field-error">
      {message}
    </p>
  );
}
