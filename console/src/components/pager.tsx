import { go } from '../router.js';

/**
 * The API's cursors of the pages passed, kept in the fragment's `pages` as a stack (so Back
 * and Forward work and a page can be bookmarked); the last one is the page shown.
 */
export function pageCursors(params: URLSearchParams): {
  readonly cursors: readonly string[];
  readonly cursor: string | undefined;
} {
  const pages = params.get('pages') ?? '';
  const cursors = pages === '' ? [] : pages.split(' ');
  return { cursors, cursor: cursors[cursors.length - 1] };
}

/** Previous and Next under a list: `base` is the page's fragment (`#/links`). */
export function Pager(props: {
  base: string;
  params: URLSearchParams;
  nextCursor: string | null | undefined;
}) {
  const { base, params, nextCursor } = props;
  const { cursors } = pageCursors(params);
  const toPages = (next: readonly string[]) => {
    const query = new URLSearchParams(params);
    if (next.length === 0) query.delete('pages');
    else query.set('pages', next.join(' '));
    go(`${base}?${query.toString()}`);
  };
  return (
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
        disabled={nextCursor == null}
        onClick={() => {
          if (nextCursor != null) toPages([...cursors, nextCursor]);
        }}
      >
        Next
      </button>
    </nav>
  );
}
