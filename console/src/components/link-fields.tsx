import type { Link } from '../api.js';
import { formText } from '../form-text.js';
import { localDateTime } from '../format.js';
import { FieldError, type FormErrors } from './field-errors.js';

/** The fields the API lets a link's owner set: those of a create and of a PATCH. */
export const LINK_FIELDS = ['destination', 'title', 'tags', 'expires_at', 'status_code'] as const;

const STATUSES = [
  ['302', '302 Found (default)'],
  ['301', '301 Moved permanently'],
  ['307', '307 Temporary redirect'],
  ['308', '308 Permanent redirect'],
] as const;

/**
 * Destination, title, tags, expiry and redirect status, each with the API's rule under it
 * when refused. `prefix` keeps ids unique; `link` fills them in for an edit.
 */
export function LinkFields(props: { prefix: string; link?: Link; errors: FormErrors }) {
  const { prefix, link, errors } = props;
  const field = (name: string) => {
    const id = `${prefix}-${name}`;
    const message = errors.byField.get(name);
    return {
      id,
      name,
      'aria-invalid': message === undefined ? undefined : true,
      'aria-describedby': message === undefined ? undefined : `${id}-error`,
    };
  };
  const error = (name: string) => (
    <FieldError id={`${prefix}-${name}-error`} message={errors.byField.get(name)} />
  );
  return (
    <>
      <label for={`${prefix}-destination`}>Destination</label>
      <input
        {...field('destination')}
        type="url"
        placeholder="https://"
        defaultValue={link?.destination ?? ''}
      />
      {error('destination')}
      <label for={`${prefix}-title`}>Title (optional)</label>
      <input {...field('title')} defaultValue={link?.title ?? ''} />
      {error('title')}
      <label for={`${prefix}-tags`}>Tags (optional, comma-separated)</label>
      <input {...field('tags')} defaultValue={link?.tags.join(', ') ?? ''} />
      {error('tags')}
      <label for={`${prefix}-expires_at`}>Expires (optional)</label>
      <div class="expiry">
        <input
          {...field('expires_at')}
          type="datetime-local"
          defaultValue={localDateTime(link?.expires_at ?? null)}
        />
        <label class="inline">
          <input
            type="checkbox"
            name="never"
            defaultChecked={link !== undefined && link.expires_at === null}
          />{' '}
          Never expires
        </label>
      </div>
      {error('expires_at')}
      <label for={`${prefix}-status_code`}>Redirect status</label>
      <select {...field('status_code')}>
        {/* `selected`, not the select's defaultValue, which Preact does not apply. */}
        {STATUSES.map(([value, text]) => (
          <option key={value} value={value} selected={value === String(link?.status_code ?? 302)}>
            {text}
          </option>
        ))}
      </select>
      {error('status_code')}
    </>
  );
}

/**
 * The JSON a form of LinkFields asks for. For a new link, every field given; for an edit
 * (`link`), only the fields changed, so a PATCH never re-sends an expiry nobody touched.
 * "Never expires" sends `expires_at: null`; the API says whether its limits allow it.
 */
export function linkFieldsBody(form: FormData, link?: Link): Record<string, unknown> {
  const text = (name: string) => formText(form, name);
  const tags = text('tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  const title = text('title') === '' ? null : text('title');
  // datetime-local is the browser's local time; the API takes an instant.
  const expiresAt =
    form.get('never') !== null
      ? null
      : text('expires_at') === ''
        ? undefined
        : new Date(text('expires_at')).toISOString();
  const wanted: Record<string, unknown> = {
    destination: text('destination'),
    title,
    tags,
    status_code: Number(text('status_code')),
  };
  if (expiresAt !== undefined) wanted['expires_at'] = expiresAt;
  if (link === undefined) {
    if (title === null) delete wanted['title'];
    if (tags.length === 0) delete wanted['tags'];
    return wanted;
  }
  const changed: Record<string, unknown> = {};
  const same = (name: string, before: unknown) =>
    JSON.stringify(wanted[name]) === JSON.stringify(before);
  for (const [name, before] of [
    ['destination', link.destination],
    ['title', link.title],
    ['tags', link.tags],
    ['status_code', link.status_code],
  ] as const) {
    if (!same(name, before)) changed[name] = wanted[name];
  }
  const expiryUnchanged =
    expiresAt === undefined
      ? link.expires_at === null || text('expires_at') === ''
      : expiresAt === null
        ? link.expires_at === null
        : text('expires_at') === localDateTime(link.expires_at);
  if (!expiryUnchanged) changed['expires_at'] = expiresAt ?? null;
  return changed;
}
