import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Tag } from '../api.js';
import { ActionStatus, useAction } from '../components/use-action.js';
import { Alert } from '../components/alert.js';
import { ChangeOrDelete } from '../components/confirm-button.js';
import { FieldError, formErrors, NO_ERRORS, type FormErrors } from '../components/field-errors.js';
import { pageCursors, Pager } from '../components/pager.js';
import { useLoad } from '../components/use-load.js';
import { formText } from '../form-text.js';
import { count } from '../format.js';
import { go } from '../router.js';

/**
 * Tags with their links and clicks (issue 22), searched and paged in the fragment like the
 * links. Renaming onto an existing tag merges the two; deleting removes the tag from every
 * link the key can see. Each tag leads to its links.
 */
export function TagsPage({ params, canWrite }: { params: URLSearchParams; canWrite: boolean }) {
  const search = params.get('search') ?? '';
  const { cursor } = pageCursors(params);
  const { value, error, reload } = useLoad(() => api.tags({ search, cursor }), [search, cursor]);
  const { status, failure, said, run } = useAction(reload);
  const [renaming, setRenaming] = useState('');
  const done = (message: string) => {
    setRenaming('');
    said(message);
  };
  const remove = (tag: Tag) => {
    run(
      () => api.removeTag(tag.name),
      `Deleted the tag ${tag.name} from ${count(tag.links)} links.`,
    );
  };
  const searchTags = (event: Event) => {
    event.preventDefault();
    const text = formText(new FormData(event.currentTarget as HTMLFormElement), 'search');
    go(text === '' ? '#/tags' : `#/tags?${new URLSearchParams({ search: text }).toString()}`);
  };
  return (
    <>
      <h1>Tags</h1>
      <form class="filters tag-search" role="search" onSubmit={searchTags} key={search}>
        <label>
          Search tags
          <input name="search" type="search" defaultValue={search} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Alert message={error} />
      <ActionStatus status={status} failure={failure} testId="tags-status" />
      <div class="scroll">
        <table class="tags-table">
          <caption class="visually-hidden">Tags</caption>
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col" class="num">
                Links
              </th>
              <th scope="col" class="num">
                Clicks
              </th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {value?.tags.length === 0 && (
              <tr>
                <td colSpan={canWrite ? 4 : 3} class="empty">
                  No tags match
                </td>
              </tr>
            )}
            {value?.tags.map((tag) => (
              <tr key={tag.name} data-tag={tag.name}>
                <td>
                  <a
                    class="tag"
                    href={`#/links?${new URLSearchParams({ tag: tag.name }).toString()}`}
                  >
                    {tag.name}
                  </a>
                </td>
                <td class="num">{count(tag.links)}</td>
                <td class="num">{count(tag.clicks)}</td>
                {canWrite && (
                  <td>
                    {renaming === tag.name ? (
                      <RenameTag
                        tag={tag}
                        onRenamed={done}
                        onCancel={() => {
                          setRenaming('');
                        }}
                      />
                    ) : (
                      <ChangeOrDelete
                        subject={tag.name}
                        change="Rename"
                        confirm={`Remove ${tag.name} from ${count(tag.links)} links`}
                        onChange={() => {
                          setRenaming(tag.name);
                        }}
                        onDelete={() => {
                          remove(tag);
                        }}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager base="#/tags" params={params} nextCursor={value?.next_cursor} />
    </>
  );
}

/** The new name in the tag's row; a name already in use merges this tag into it. */
function RenameTag(props: {
  tag: Tag;
  onRenamed: (message: string) => void;
  onCancel: () => void;
}) {
  const { tag, onRenamed, onCancel } = props;
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    inputRef.current?.focus();
  }, []);
  const id = `rename-${tag.name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
  const message = errors.byField.get('name');
  const submit = (event: Event) => {
    event.preventDefault();
    const to = formText(new FormData(event.currentTarget as HTMLFormElement), 'name');
    setErrors(NO_ERRORS);
    api.renameTag(tag.name, to).then(
      (renamed) => {
        // More links than the tag had: an existing tag took it in.
        const merged = renamed.links > tag.links;
        onRenamed(
          merged
            ? `Merged ${tag.name} into ${renamed.name}: ${count(renamed.links)} links.`
            : `Renamed ${tag.name} to ${renamed.name}.`,
        );
      },
      (e: unknown) => {
        setErrors(formErrors(e, ['name']));
      },
    );
  };
  return (
    <form class="rename" onSubmit={submit} noValidate>
      <label class="visually-hidden" for={id}>
        New name for {tag.name}
      </label>
      <input
        id={id}
        ref={inputRef}
        name="name"
        defaultValue={tag.name}
        aria-invalid={message === undefined ? undefined : true}
        aria-describedby={message === undefined ? `${id}-hint` : `${id}-hint ${id}-error`}
      />
      <small id={`${id}-hint`}>An existing tag of that name is merged with this one.</small>
      <span class="row-actions">
        <button type="submit" class="small">
          Save
        </button>
        <button type="button" class="secondary small" onClick={onCancel}>
          Cancel
        </button>
      </span>
      <FieldError id={`${id}-error`} message={message} />
      <Alert message={errors.general} />
    </form>
  );
}
