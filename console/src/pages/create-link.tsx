import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { formText } from '../form-text.js';
import { go } from '../router.js';

/** A new link: destination, and optionally an alias, an expiry, a status, a title, tags. */
export function CreateLink() {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => formText(form, name);
    const body: Record<string, unknown> = {
      destination: text('destination'),
      status_code: Number(text('status_code')),
    };
    if (text('alias') !== '') body['alias'] = text('alias');
    // datetime-local is the browser's local time; the API takes an instant.
    if (text('expires_at') !== '') body['expires_at'] = new Date(text('expires_at')).toISOString();
    if (text('title') !== '') body['title'] = text('title');
    const tags = text('tags')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    if (tags.length > 0) body['tags'] = tags;
    setBusy(true);
    setError(null);
    api.create(body).then(
      (link) => {
        go(`#/links/${link.id}`);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof ApiError ? e : new ApiError(0, 'Creating the link failed.'));
      },
    );
  };
  return (
    <>
      <h1>New link</h1>
      <form class="create" onSubmit={submit}>
        <label for="new-destination">Destination</label>
        <input id="new-destination" name="destination" type="url" required placeholder="https://" />
        <label for="new-alias">Alias (optional)</label>
        <input
          id="new-alias"
          name="alias"
          pattern="[A-Za-z0-9_\-]{3,64}"
          title="3 to 64 letters, digits, _ or -"
          aria-describedby="alias-hint"
        />
        <small id="alias-hint">Leave empty for a generated code. An alias is never reused.</small>
        <label for="new-expiry">Expires (optional)</label>
        <input id="new-expiry" name="expires_at" type="datetime-local" />
        <label for="new-status">Redirect status</label>
        <select id="new-status" name="status_code" defaultValue="302">
          <option value="302">302 Found (default)</option>
          <option value="301">301 Moved permanently</option>
          <option value="307">307 Temporary redirect</option>
          <option value="308">308 Permanent redirect</option>
        </select>
        <label for="new-title">Title (optional)</label>
        <input id="new-title" name="title" maxLength={200} />
        <label for="new-tags">Tags (optional, comma-separated)</label>
        <input id="new-tags" name="tags" />
        <button type="submit" disabled={busy}>
          Create link
        </button>
        {error !== null && (
          <div role="alert" class="error">
            <p>{error.message}</p>
            {error.fields.length > 0 && (
              <ul>
                {error.fields.map((field, index) => (
                  <li key={index}>{`${field.field}: ${field.detail}`}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </form>
    </>
  );
}
