import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Domain } from '../api.js';
import { ActionStatus, useAction } from '../components/use-action.js';
import { Alert } from '../components/alert.js';
import { ChangeOrDelete } from '../components/confirm-button.js';
import { formErrors, NO_ERRORS, type FormErrors } from '../components/field-errors.js';
import { Field } from '../components/form-field.js';
import { useLoad } from '../components/use-load.js';
import { formText } from '../form-text.js';
import { date, dateTime } from '../format.js';

const DOMAIN_FIELDS = ['host', 'root_redirect', 'not_found_redirect'];

/**
 * The short domains (issue 22): every key with links:read sees the list (a key limited to
 * domains, only its own); adding, changing and deleting need domains:write. The default
 * domain is the host of HOP_PUBLIC_URL: it cannot be deleted, so it offers no Delete.
 */
export function DomainsPage({ canWrite }: { canWrite: boolean }) {
  const { value, error, reload } = useLoad(() => api.domains(), []);
  const { status, failure, said, run } = useAction(reload);
  const [editing, setEditing] = useState<Domain | null>(null);
  // A 409 domain-in-use is shown in the API's words: links still use the domain.
  const remove = (domain: Domain) => {
    run(async () => {
      await api.removeDomain(domain.host);
      if (editing?.host === domain.host) setEditing(null);
    }, `Deleted ${domain.host}.`);
  };
  return (
    <>
      <h1>Domains</h1>
      <p class="note">
        Each link answers on its own domain; codes are unique per domain. A request for a host hop
        does not know resolves on the default domain.
      </p>
      <Alert message={error} />
      <ActionStatus status={status} failure={failure} testId="domains-status" />
      <div class="scroll">
        <table class="domains">
          <caption class="visually-hidden">Domains</caption>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Root redirect</th>
              <th scope="col">Not-found redirect</th>
              <th scope="col">Short URLs</th>
              <th scope="col">Created</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {value?.domains.map((domain) => (
              <tr key={domain.host} data-host={domain.host}>
                <td>
                  <strong>{domain.host}</strong>{' '}
                  {domain.default && <span class="badge">default</span>}
                </td>
                <td class="destination" title={domain.root_redirect ?? undefined}>
                  {domain.root_redirect ?? <span class="note">hop&rsquo;s own page</span>}
                </td>
                <td class="destination" title={domain.not_found_redirect ?? undefined}>
                  {domain.not_found_redirect ?? <span class="note">404</span>}
                </td>
                <td>{domain.https ? 'https' : 'http'}</td>
                <td class="day" title={dateTime(domain.created_at)}>
                  {date(domain.created_at)}
                </td>
                {canWrite && (
                  <td>
                    <ChangeOrDelete
                      subject={domain.host}
                      change="Edit"
                      confirm={`Delete ${domain.host} for good`}
                      deletable={!domain.default}
                      onChange={() => {
                        setEditing(domain);
                      }}
                      onDelete={() => {
                        remove(domain);
                      }}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canWrite && editing !== null && (
        <DomainForm
          key={editing.host}
          domain={editing}
          onDone={(changed) => {
            setEditing(null);
            if (changed !== null) said(`Saved ${changed.host}.`);
          }}
        />
      )}
      {canWrite && (
        <DomainForm
          key={value?.domains.length ?? 0}
          onDone={(added) => {
            if (added !== null) said(`Added ${added.host}.`);
          }}
        />
      )}
    </>
  );
}

/**
 * Adds a domain, or edits one (`domain`): its host never changes. The API checks every
 * field (noValidate) and its rule shows under the field it is about.
 */
function DomainForm(props: { domain?: Domain; onDone: (domain: Domain | null) => void }) {
  const { domain, onDone } = props;
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const prefix = domain === undefined ? 'domain-new' : 'domain-edit';
  const heading = domain === undefined ? 'Add a domain' : `Edit ${domain.host}`;
  const headingId = `${prefix}-heading`;
  // The edit form takes focus when it opens, as a new page would.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (domain !== undefined) formRef.current?.querySelector('input')?.focus();
  }, [domain]);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const url = (name: string) => (formText(form, name) === '' ? null : formText(form, name));
    const body: Record<string, unknown> = {
      root_redirect: url('root_redirect'),
      not_found_redirect: url('not_found_redirect'),
      https: form.get('https') !== null,
    };
    setBusy(true);
    setErrors(NO_ERRORS);
    const saved =
      domain === undefined
        ? api.createDomain({ host: formText(form, 'host'), ...body })
        : api.updateDomain(domain.host, body);
    saved.then(
      (changed) => {
        setBusy(false);
        onDone(changed);
      },
      (e: unknown) => {
        setBusy(false);
        setErrors(formErrors(e, DOMAIN_FIELDS));
      },
    );
  };
  return (
    <form
      class="create domain-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={headingId}
      ref={formRef}
    >
      <h2 id={headingId}>{heading}</h2>
      {domain === undefined && (
        <Field
          prefix={prefix}
          path="host"
          errors={errors}
          label="Host"
          hint="A host name such as go.acme.com, pointed at hop by DNS."
          input={(attributes) => <input {...attributes} name="host" autoComplete="off" />}
        />
      )}
      <Field
        prefix={prefix}
        path="root_redirect"
        errors={errors}
        label="Root redirect (optional)"
        hint="Where a visit to the bare domain goes."
        input={(attributes) => (
          <input
            {...attributes}
            name="root_redirect"
            type="url"
            placeholder="https://"
            defaultValue={domain?.root_redirect ?? ''}
          />
        )}
      />
      <Field
        prefix={prefix}
        path="not_found_redirect"
        errors={errors}
        label="Not-found redirect (optional)"
        hint="Where an unknown, disabled or expired code goes instead of the 404."
        input={(attributes) => (
          <input
            {...attributes}
            name="not_found_redirect"
            type="url"
            placeholder="https://"
            defaultValue={domain?.not_found_redirect ?? ''}
          />
        )}
      />
      <label class="inline">
        <input type="checkbox" name="https" defaultChecked={domain?.https ?? true} /> Short URLs use
        https
      </label>
      <span class="form-buttons">
        <button type="submit" disabled={busy}>
          {domain === undefined ? 'Add domain' : 'Save domain'}
        </button>
        {domain !== undefined && (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              onDone(null);
            }}
          >
            Cancel
          </button>
        )}
      </span>
      <Alert message={errors.general} />
    </form>
  );
}
