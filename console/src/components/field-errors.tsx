import { ApiError } from '../api.js';
import { pathPrefixes } from '../field-paths.js';

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
 * fields, each under the longest of the form's field paths it lies under: `tags.2` is the
 * tags field's, `rules[2].when.country[0]` the country field of the third rule (issue 21).
 * The detail goes on top only when no field shows it, so each message is said once.
 */
export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) {
    return { byField: new Map(), general: 'That did not work: try again.' };
  }
  const byField = new Map<string, string>();
  const elsewhere: string[] = [];
  for (const problem of error.fields) {
    const name = pathPrefixes(problem.field).find((prefix) => fields.includes(prefix));
    if (name !== undefined && !byField.has(name)) byField.set(name, problem.detail);
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

/**
 * An input's id and, when the API refused it, what ties it to its error: `path` is the
 * API's field path (`rules[0].when.country`), the id that path under `prefix`.
 */
export function fieldIdentity(prefix: string, path: string, errors: FormErrors) {
  const id = `${prefix}-${path.replace(/[^A-Za-z0-9_]+/g, '-').replace(/-$/, '')}`;
  const message = errors.byField.get(path);
  return {
    id,
    message,
    errorId: `${id}-error`,
    invalid: {
      'aria-invalid': message === undefined ? undefined : true,
      'aria-describedby': message === undefined ? undefined : `${id}-error`,
    },
  } as const;
}
