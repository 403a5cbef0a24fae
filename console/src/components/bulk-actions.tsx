import { useState } from 'preact/hooks';
import { api, type BulkResult, type Link } from '../api.js';
import { Alert } from './alert.js';
import { ConfirmButton } from './confirm-button.js';
import { FieldError, formErrors, NO_ERRORS, type FormErrors } from './field-errors.js';
import { formText } from '../form-text.js';

/** What a bulk call left undone: the links that failed, each with the API's reason. */
export interface BulkOutcome {
  readonly message: string;
  /** A delete: the links it removed leave the selection. */
  readonly deleted: boolean;
  readonly failures: readonly {
    readonly id: string;
    readonly code: string;
    readonly detail: string;
  }[];
}

/** The state changes of the bulk bar: its button, the state asked for, what is said after. */
const STATE_CHANGES = [
  ['Disable selected', 'disabled', 'Disabled'],
  ['Enable selected', 'active', 'Enabled'],
] as const;

/**
 * The actions on the links ticked in the table (issue 22): add a tag, disable, enable,
 * delete, each one PATCH or DELETE /v1/links/bulk. The 207's results say per link what
 * happened. After a change every link stays ticked, so another action can follow; after
 * a delete, those that failed (ADR 0123).
 */
export function BulkActions(props: {
  selected: readonly Link[];
  onDone: (outcome: BulkOutcome) => void;
}) {
  const { selected, onDone } = props;
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const ids = selected.map((link) => link.id);
  const run = (
    verb: { done: string; failed: string; deleted?: boolean },
    call: () => Promise<{ results: readonly BulkResult[] }>,
  ) => {
    setBusy(true);
    setErrors(NO_ERRORS);
    call().then(
      ({ results }) => {
        setBusy(false);
        onDone(outcomeOf(results, selected, verb));
      },
      (e: unknown) => {
        // The whole call refused (422: a bad tag, too many links): nothing changed.
        setBusy(false);
        setErrors(formErrors(e, ['patch.add_tags']));
      },
    );
  };
  const addTag = (event: Event) => {
    event.preventDefault();
    const tag = formText(new FormData(event.currentTarget as HTMLFormElement), 'tag');
    run({ done: `Tagged ${tag}:`, failed: 'be tagged' }, () =>
      api.bulkUpdate(ids, { add_tags: [tag] }),
    );
  };
  const tagError = errors.byField.get('patch.add_tags');
  const n = selected.length;
  return (
    <section class="bulk" aria-label="Bulk actions" data-testid="bulk-actions">
      <strong>
        {n} {n === 1 ? 'link' : 'links'} selected
      </strong>
      <form class="bulk-tag" onSubmit={addTag} noValidate>
        <label for="bulk-tag">Tag to add</label>
        <input
          id="bulk-tag"
          name="tag"
          aria-invalid={tagError === undefined ? undefined : true}
          aria-describedby={tagError === undefined ? undefined : 'bulk-tag-error'}
        />
        <button type="submit" class="secondary" disabled={busy}>
          Add tag
        </button>
      </form>
      {STATE_CHANGES.map(([label, state, done]) => (
        <button
          type="button"
          class="secondary"
          key={state}
          disabled={busy}
          onClick={() => {
            run({ done, failed: `be ${done.toLowerCase()}` }, () => api.bulkUpdate(ids, { state }));
          }}
        >
          {label}
        </button>
      ))}
      <ConfirmButton
        label="Delete selected"
        confirm={`Delete ${n} ${n === 1 ? 'link' : 'links'} for good`}
        keep="Keep them"
        disabled={busy}
        onConfirm={() => {
          run({ done: 'Deleted', failed: 'be deleted', deleted: true }, () => api.bulkRemove(ids));
        }}
      />
      <FieldError id="bulk-tag-error" message={tagError} />
      <Alert message={errors.general} />
    </section>
  );
}

function outcomeOf(
  results: readonly BulkResult[],
  selected: readonly Link[],
  verb: { done: string; failed: string; deleted?: boolean },
): BulkOutcome {
  const codeOf = new Map(selected.map((link) => [link.id, link.code]));
  const failures = results
    .filter((result) => result.status >= 300)
    .map((result) => ({
      id: result.id,
      code: codeOf.get(result.id) ?? result.id,
      detail: result.problem?.detail ?? result.problem?.title ?? `status ${result.status}`,
    }));
  const succeeded = results.length - failures.length;
  const links = (k: number) => `${k} ${k === 1 ? 'link' : 'links'}`;
  const message =
    failures.length === 0
      ? `${verb.done} ${links(succeeded)}.`
      : `${verb.done} ${links(succeeded)}; ${links(failures.length)} could not ${verb.failed}:`;
  return { message, failures, deleted: verb.deleted === true };
}

/** The links a bulk call could not change, each with the API's reason. */
export function BulkFailures({ outcome }: { outcome: BulkOutcome | null }) {
  if (outcome === null || outcome.failures.length === 0) return null;
  return (
    <ul class="bulk-failures" data-testid="bulk-failures">
      {outcome.failures.map((failure) => (
        <li key={failure.id}>
          <span class="code">{failure.code}</span>: {failure.detail}
        </li>
      ))}
    </ul>
  );
}
