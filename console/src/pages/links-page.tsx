import { LinkCells } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { api } from '../api.js';
import { useLoad } from '../components/use-load.js';
import { count, dateTime } from '../format.js';
import { formText } from '../form-text.js';
import { go } from '../router.js';

const STATES = ['', 'active', 'disabled', 'expired', 'deleted'] as const;

/**
 * Search, filters and the page live in the URL fragment, so a search can be bookmarked and
 * Back and Forward work: the API's cursors of the pages passed are kept there as a stack,
 * which "Previous" pops.
 */
export function LinksPage({ params }: { params: URLSearchParams }) {
  const q = params.get('q') ?? '';
  const state = params.get('state') ?? '';
  const owner = params.get('owner') ?? '';
  const pages = params.get('pages') ?? '';
  const cursors = pages === '' ? [] : pages.split(' ');
  const cursor = cursors[cursors.length - 1];
  const toPages = (next: readonly string[]) => {
    const query = new URLSearchParams(params);
    if (next.length === 0) query.delete('pages');
    else query.set('pages', next.join(' '));
    go(`#/links?${query.toString()}`);
  };
  const { value: page, error } = useLoad(
    () => api.links({ q, state, owner, cursor }),
    [q, state, owner, cursor],
  );

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const name of ['q', 'state', 'owner']) {
      const value = formText(form, name);
      if (value !== '') next.set(name, value);
    }
    const query = next.toString();
    go(query === '' ? '#/links' : `#/links?${query}`);
  };

  return (
    <>
      <h1>Links</h1>
      <form class="filters" role="search" onSubmit={search} key={`${q}|${state}|${owner}`}>
        <label>
          Search
          <input name="q" type="search" defaultValue={q} placeholder="code, destination or title" />
        </label>
        <label>
          Owner
          <input name="owner" defaultValue={owner} />
        </label>
        <label>
          State
          <select name="state" defaultValue={state}>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s === '' ? 'any' : s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <Alert message={error} />
      <div class="scroll">
        <table class="links">
          <caption class="visually-hidden">Links, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Destination</th>
              <th scope="col">State</th>
              <th scope="col">Owner</th>
              <th scope="col" class="num">
                Clicks
              </th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {page?.items.length === 0 && (
              <tr>
                <td colSpan={6} class="empty">
                  No links match
                </td>
              </tr>
            )}
            {page?.items.map((link) => (
              <tr key={link.id}>
                <LinkCells link={link} />
                <td>{link.owner}</td>
                <td class="num">{count(link.clicks)}</td>
                <td>{dateTime(link.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 0}
          onClick={() => {
            toPages(cursors.slice(0, -1));
          }}
        >
          Previous
        </button>
        <span>Page {cursors.length + 1}</span>
        <button
          type="button"
          class="secondary"
          disabled={page?.next_cursor == null}
          onClick={() => {
            if (page?.next_cursor != null) toPages([...cursors, page.next_cursor]);
          }}
        >
          Next
        </button>
      </nav>
    </>
  );
}
