import { UTM_KEYS, type Link } from '../api.js';
import type { FormErrors } from './field-errors.js';
import { Field, GroupError } from './form-field.js';
import { RulesEditor } from './rules-editor.js';
import { smartSummary } from './smart-summary.js';
import { VariantsEditor } from './variants-editor.js';
import { useState } from 'preact/hooks';

/** The API fields the smart section edits: it opens by itself when one of them is refused. */
const SMART_ERROR = /^(rules|variants|password|max_clicks|fallback_url|forward_query|utm)\b/;

/**
 * "Smart link" (issue 21), in the create form and a link's edit form: rules, variants,
 * password, click limit, fallback, query forwarding and UTM. Folded away for a plain link,
 * open for a smart one. Nothing here ever shows the password: only whether there is one.
 */
export function SmartFields(props: { prefix: string; link?: Link; errors: FormErrors }) {
  const { prefix, link, errors } = props;
  const summary = link === undefined ? '' : smartSummary(link);
  const hasUtm = link !== undefined && Object.keys(link.utm).length > 0;
  const refused = [...errors.byField.keys()].some((field) => SMART_ERROR.test(field));
  return (
    <details class="smart" open={summary !== '' || hasUtm || refused}>
      <summary>Smart link{summary === '' ? '' : `: ${summary}`}</summary>
      <RulesEditor prefix={prefix} rules={link?.rules ?? []} errors={errors} />
      <VariantsEditor prefix={prefix} variants={link?.variants ?? []} errors={errors} />
      <AccessFields prefix={prefix} link={link} errors={errors} />
      <ForwardingFields prefix={prefix} link={link} errors={errors} />
    </details>
  );
}

/** Password, click limit, fallback: who gets through, how often, and where after the end. */
function AccessFields(props: { prefix: string; link: Link | undefined; errors: FormErrors }) {
  const { prefix, link, errors } = props;
  const protectedNow = link?.password_protected === true;
  const [removing, setRemoving] = useState(false);
  return (
    <fieldset class="smart-group">
      <legend>Access</legend>
      {protectedNow && (
        <p class="note" data-testid="password-state">
          Visitors must give a password.
        </p>
      )}
      <Field
        prefix={prefix}
        path="password"
        errors={errors}
        label={protectedNow ? 'New password (empty: keep it)' : 'Password (optional)'}
        hint="4 to 128 characters; it is never shown again."
        input={(attributes) => (
          <input
            {...attributes}
            type="password"
            name="password"
            autocomplete="new-password"
            disabled={removing}
          />
        )}
      />
      {protectedNow && (
        <label class="inline">
          <input
            type="checkbox"
            name="remove_password"
            onChange={(event) => {
              setRemoving(event.currentTarget.checked);
            }}
          />{' '}
          Remove the password
        </label>
      )}
      <Field
        prefix={prefix}
        path="max_clicks"
        errors={errors}
        label="Click limit (empty: none)"
        hint="After this many redirects the link answers as expired."
        input={(attributes) => (
          <input
            {...attributes}
            inputMode="numeric"
            name="max_clicks"
            defaultValue={
              link?.max_clicks === null || link === undefined ? '' : String(link.max_clicks)
            }
          />
        )}
      />
      <Field
        prefix={prefix}
        path="fallback_url"
        errors={errors}
        label="Fallback URL (optional)"
        hint="Where visitors go once the link has expired or used up its clicks."
        input={(attributes) => (
          <input
            {...attributes}
            type="url"
            placeholder="https://"
            name="fallback_url"
            defaultValue={link?.fallback_url ?? ''}
          />
        )}
      />
    </fieldset>
  );
}

/** Query forwarding and the destination's UTM parameters. */
function ForwardingFields(props: { prefix: string; link: Link | undefined; errors: FormErrors }) {
  const { prefix, link, errors } = props;
  return (
    <fieldset class="smart-group">
      <legend>Forwarding and UTM</legend>
      <label class="inline">
        <input
          type="checkbox"
          name="forward_query"
          aria-describedby={`${prefix}-forward-hint`}
          defaultChecked={link?.forward_query === true}
        />{' '}
        Forward the query string
      </label>
      <small id={`${prefix}-forward-hint`}>
        The query of each visit is added to the destination (the destination&apos;s own parameters
        win).
      </small>
      <small>UTM parameters are written into the destination; empty removes one.</small>
      <GroupError prefix={prefix} path="utm" errors={errors} />
      <div class="utm-grid">
        {UTM_KEYS.map((key) => (
          <Field
            key={key}
            prefix={prefix}
            path={`utm.${key}`}
            errors={errors}
            label={`UTM ${key}`}
            input={(attributes) => (
              <input {...attributes} name={`utm_${key}`} defaultValue={link?.utm[key] ?? ''} />
            )}
          />
        ))}
      </div>
    </fieldset>
  );
}
