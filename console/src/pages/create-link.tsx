import { useState } from 'preact/hooks';
import { Field } from '../components/form-field.js';
import { useLoad } from '../components/use-load.js';
import { api } from '../api.js';
import { FieldError, formErrors, NO_ERRORS, type FormErrors } from '../components/field-errors.js';
import { LINK_FIELDS, LinkFields, linkFieldsBody } from '../components/link-fields.js';
import { Alert } from '../components/alert.js';
import { SmartFields } from '../components/smart-fields.js';
import { formText } from '../form-text.js';
import { go } from '../router.js';
import { smartErrorFields, smartFieldsBody } from '../smart-body.js';

const FIELDS = [...LINK_FIELDS, 'alias', 'domain'];

/**
 * A new link: destination, and optionally an alias, an expiry, a status, a title, tags,
 * and the smart settings (issue 21).
 * The API checks every field (noValidate: no browser bubble), and its rule shows under
 * the field it is about.
 */
export function CreateLink() {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body = { ...linkFieldsBody(form), ...smartFieldsBody(form) };
    if (formText(form, 'alias') !== '') body['alias'] = formText(form, 'alias');
    // Absent is the default domain: a key limited to other domains is told so by the API.
    if (formText(form, 'domain') !== '') body['domain'] = formText(form, 'domain');
    setBusy(true);
    setErrors(NO_ERRORS);
    api.create(body).then(
      (link) => {
        go(`#/links/${link.id}`);
      },
      (e: unknown) => {
        setBusy(false);
        setErrors(formErrors(e, [...FIELDS, ...smartErrorFields(form)]));
      },
    );
  };
  const aliasError = errors.byField.get('alias');
  // Only the domains the key may use are listed (issue 22); none listed: the default.
  const { value: domains } = useLoad(() => api.domains(), []);
  return (
    <>
      <h1>New link</h1>
      <form class="create" onSubmit={submit} noValidate>
        {domains !== null && domains.domains.length > 0 && (
          <Field
            prefix="new"
            path="domain"
            errors={errors}
            label="Domain"
            input={(attributes) => (
              <select {...attributes} name="domain">
                {domains.domains.map((domain) => (
                  <option key={domain.host} value={domain.default ? '' : domain.host}>
                    {domain.host}
                  </option>
                ))}
              </select>
            )}
          />
        )}
        <LinkFields prefix="new" errors={errors} />
        <label for="new-alias">Alias (optional)</label>
        <input
          id="new-alias"
          name="alias"
          aria-invalid={aliasError === undefined ? undefined : true}
          aria-describedby={aliasError === undefined ? 'alias-hint' : 'alias-hint new-alias-error'}
        />
        <small id="alias-hint">Leave empty for a generated code. An alias is never reused.</small>
        <FieldError id="new-alias-error" message={aliasError} />
        <SmartFields prefix="new" errors={errors} />
        <button type="submit" disabled={busy}>
          Create link
        </button>
        <Alert message={errors.general} />
      </form>
    </>
  );
}
