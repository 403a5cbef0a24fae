import { useEffect, useRef, useState } from 'preact/hooks';
import { api, SCOPES, type ApiKey, type IssuedKey } from '../api.js';
import { ActionStatus, useAction } from '../components/use-action.js';
import { Alert } from '../components/alert.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { formErrors, NO_ERRORS, type FormErrors } from '../components/field-errors.js';
import { ChoiceGroup, Field } from '../components/form-field.js';
import { useLoad } from '../components/use-load.js';
import { formText } from '../form-text.js';
import { date, dateTime } from '../format.js';

/** What a key made without scopes may do (src/domain/principal.ts OWNER_SCOPES). */
const OWNER_SCOPES = ['links:read', 'links:write', 'analytics:read'];
const KEY_FIELDS = ['owner', 'name', 'scopes', 'domains', 'expires_at'];

/**
 * API keys (issue 22; needs keys:write): each with a name, scopes, the domains it may use
 * and an expiry. A new key's secret is shown once, here, and never again: hop keeps only
 * its hash.
 */
export function KeysPage({ sessionKeyId }: { sessionKeyId: string }) {
  const { value, error, reload } = useLoad(() => api.keys(), []);
  const { value: domains } = useLoad(() => api.domains(), []);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const { status, failure, said, run } = useAction(reload);
  const revoke = (key: ApiKey) => {
    run(
      () => api.revokeKey(key.id),
      `Revoked ${key.name ?? key.prefix}: it is refused from now on.`,
    );
  };
  return (
    <>
      <h1>API keys</h1>
      <Alert message={error} />
      <ActionStatus status={status} failure={failure} testId="keys-status" />
      {issued !== null && (
        <NewSecret
          issued={issued}
          onDismiss={() => {
            setIssued(null);
          }}
        />
      )}
      <div class="scroll">
        <table class="keys">
          <caption class="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Owner</th>
              <th scope="col">Key</th>
              <th scope="col">Scopes</th>
              <th scope="col">Domains</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {value?.keys.map((key) => (
              <KeyRow
                key={key.id}
                apiKey={key}
                current={key.id === sessionKeyId}
                onRevoke={revoke}
              />
            ))}
          </tbody>
        </table>
      </div>
      <NewKeyForm
        key={issued?.id ?? ''}
        hosts={domains?.domains.map((domain) => domain.host) ?? []}
        onIssued={(key) => {
          setIssued(key);
          said('');
        }}
      />
    </>
  );
}

function KeyRow(props: { apiKey: ApiKey; current: boolean; onRevoke: (key: ApiKey) => void }) {
  const { apiKey: key, current, onRevoke } = props;
  const label = key.name ?? key.prefix;
  const expired = key.expires_at !== null && Date.parse(key.expires_at) <= Date.now();
  return (
    <tr data-key-id={key.id}>
      <td title={`Created ${dateTime(key.created_at)}`}>
        {key.name ?? <span class="note">unnamed</span>}
        {current && <span class="note"> (this session)</span>}
      </td>
      <td>{key.owner}</td>
      <td>
        <code>{key.prefix}…</code>
      </td>
      <td>
        <span class="tags">
          {key.admin ? (
            <span class="tag">admin: every scope</span>
          ) : (
            key.scopes.map((scope) => (
              <span class="tag" key={scope}>
                {scope}
              </span>
            ))
          )}
        </span>
      </td>
      <td>
        {key.domains === null ? <span class="note">every domain</span> : key.domains.join(', ')}
      </td>
      <td class="day" title={dateTime(key.expires_at)}>
        {key.expires_at === null ? 'never' : date(key.expires_at)}
      </td>
      <td class="day" title={dateTime(key.last_used_at)} data-testid="last-used">
        {key.last_used_at === null ? 'never' : dateTime(key.last_used_at)}
      </td>
      <td>
        {key.revoked_at !== null ? (
          <span class="state deleted" title={dateTime(key.revoked_at)}>
            revoked
          </span>
        ) : (
          <span class="row-actions">
            {expired && <span class="state expired">expired</span>}
            <ConfirmButton
              small
              label="Revoke"
              name={`Revoke ${label}`}
              confirm={current ? 'Revoke and sign out' : 'Revoke for good'}
              keep="Keep it"
              onConfirm={() => {
                onRevoke(key);
              }}
            />
          </span>
        )}
      </td>
    </tr>
  );
}

/** The secret of the key just made, once: hop cannot show it again. */
function NewSecret({ issued, onDismiss }: { issued: IssuedKey; onDismiss: () => void }) {
  const [copied, setCopied] = useState('');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const copy = () => {
    if (!('clipboard' in navigator)) {
      setCopied('Copying needs https: select the key and copy it yourself');
      return;
    }
    navigator.clipboard.writeText(issued.key).then(
      () => {
        setCopied('Copied');
      },
      () => {
        setCopied('Copy failed: select the key and copy it yourself');
      },
    );
  };
  return (
    <section class="secret" aria-labelledby="secret-heading" tabIndex={-1} ref={ref}>
      <h2 id="secret-heading">New key {issued.name ?? `for ${issued.owner}`}</h2>
      <p>Copy it now: hop keeps only its hash and shows it this once.</p>
      <code data-testid="new-key-secret">{issued.key}</code>
      <span class="row-actions">
        <button type="button" class="secondary small" onClick={copy}>
          Copy key
        </button>
        <button type="button" class="secondary small" onClick={onDismiss}>
          Done
        </button>
        <span role="status">{copied}</span>
      </span>
    </section>
  );
}

/**
 * The new key's owner, name, scopes, domains and expiry. No domain ticked: every domain.
 * An admin key holds every scope whatever is ticked. The API checks every field.
 */
function NewKeyForm(props: { hosts: readonly string[]; onIssued: (key: IssuedKey) => void }) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body: Record<string, unknown> = { owner: formText(form, 'owner') };
    if (formText(form, 'name') !== '') body['name'] = formText(form, 'name');
    if (form.get('admin') !== null) body['admin'] = true;
    else body['scopes'] = form.getAll('scopes');
    const domains = form.getAll('domains');
    if (domains.length > 0) body['domains'] = domains;
    // datetime-local is the browser's local time; the API takes an instant.
    if (formText(form, 'expires_at') !== '') {
      body['expires_at'] = new Date(formText(form, 'expires_at')).toISOString();
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    api.createKey(body).then(props.onIssued, (e: unknown) => {
      setBusy(false);
      setErrors(formErrors(e, KEY_FIELDS));
    });
  };
  return (
    <form class="create key-form" onSubmit={submit} noValidate aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Create a key</h2>
      <Field
        prefix="key"
        path="owner"
        errors={errors}
        label="Owner"
        hint="Who the key's links belong to."
        input={(attributes) => <input {...attributes} name="owner" autoComplete="off" />}
      />
      <Field
        prefix="key"
        path="name"
        errors={errors}
        label="Name (optional)"
        hint="What the key is for: the tool or person that holds it."
        input={(attributes) => <input {...attributes} name="name" autoComplete="off" />}
      />
      <ChoiceGroup
        prefix="key"
        path="scopes"
        errors={errors}
        legend="Scopes"
        name="scopes"
        choices={SCOPES}
        checked={OWNER_SCOPES}
      />
      <label class="inline">
        <input type="checkbox" name="admin" /> Admin key: every scope, every link
      </label>
      {props.hosts.length > 0 && (
        <ChoiceGroup
          prefix="key"
          path="domains"
          errors={errors}
          legend="Domains (none ticked: every domain)"
          name="domains"
          choices={props.hosts}
          checked={[]}
        />
      )}
      <Field
        prefix="key"
        path="expires_at"
        errors={errors}
        label="Key expires (optional)"
        input={(attributes) => (
          <input {...attributes} name="expires_at" type="datetime-local" class="auto" />
        )}
      />
      <button type="submit" disabled={busy}>
        Create key
      </button>
      <Alert message={errors.general} />
    </form>
  );
}
