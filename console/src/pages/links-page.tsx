import { CodeCell, copyShortUrl, QrCode, StateBadge } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { useState } from 'preact/hooks';
import { api, ApiError, type Link } from '../api.js';
import { useLoad } from '../components/use-load.js';
import { count, date, dateTime } from '../format.js';
import { formText } from '../form-text.js';
import { go } from '../router.js';

const STATES = ['', 'active', 'disabled', 'expired', 'deleted'] as const;
/** The API's orders (ADR 0097); '' is its default, newest first. */
const SORTS = [
  ['', 'Newest first'],
  ['created', 'Oldest first'],
  ['-clicks', 'Most clicks'],
  ['clicks', 'Fewest clicks'],
  ['expires_at', 'Expiring soonest'],
  ['-expires_at', 'Expiring latest'],
] as const;
const FILTERS = ['q', 'tag', 'state', 'owner', 'sort'] as const;

/**
 * Search, filters, order and the page live in the URL fragment, so a search can be
 * bookmarked and Back and Forward work: the API's cursors of the pages passed are kept
 * there as a stack, which "Previous" pops. An owner's session lists its own links only
 * (the API scopes it), so the owner filter and column are an admin's.
 */
export function LinksPage({ params, admin }: { params: URLSearchParams; admin: boolean }) {
  const filter = (name: string) => params.get(name) ?? '';
  const [q, tag, state, owner, sort] = FILTERS.map(filter) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const pages = filter('pages');
  const cursors = pages === '' ? [] : pages.split(' ');
  const cursor = cursors[cursors.length - 1];
  const toPages = (next: readonly string[]) => {
    const query = new URLSearchParams(params);
    if (next.length === 0) query.delete('pages');
    else query.set('pages', next.join(' '));
    go(`#/links?${query.toString()}`);
  };
  const {
    value: page,
    error,
    reload,
  } = useLoad(
    () => api.links({ q, tag, state, owner: admin ? owner : '', sort, cursor }),
    [q, tag, state, owner, sort, cursor],
  );
  const [qrOf, setQrOf] = useState<Link | null>(null);
  const [status, setStatus] = useState('');

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const value = formText(form, name);
      if (value !== '') next.set(name, value);
    }
    const query = next.toString();
    go(query === '' ? '#/links' : `#/links?${query}`);
  };
  const act = (done: string, action: () => Promise<unknown>) => {
    setStatus('');
    action().then(
      () => {
        setStatus(done);
        reload();
      },
      (e: unknown) => {
        setStatus(e instanceof ApiError ? e.message : 'That did not work.');
      },
    );
  };
  const copy = (link: Link) => {
    void copyShortUrl(link).then((outcome) => {
      setStatus(
        outcome === 'copied'
          ? `Copied ${link.short_url}`
          : outcome === 'insecure'
            ? 'Copying needs https: open the link and copy its short URL yourself'
            : 'Copy failed: open the link and copy its short URL yourself',
      );
    });
  };

  const columns = admin ? 10 : 9;
  return (
    <>
      <h1>Links</h1>
      <form class="filters" role="search" onSubmit={search} key={FILTERS.map(filter).join('|')}>
        <label>
          Search
          <input name="q" type="search" defaultValue={q} placeholder="code, destination or title" />
        </label>
        <label>
          Tag
          <input name="tag" defaultValue={tag} />
        </label>
        {admin && (
          <label>
            Owner
            <input name="owner" defaultValue={owner} />
          </label>
        )}
        <label>
          State
          {/* `selected` on the option: Preact does not apply a select's defaultValue. */}
          <select name="state">
            {STATES.map((s) => (
              <option key={s} value={s} selected={s === state}>
                {s === '' ? 'any' : s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort
          <select name="sort">
            {SORTS.map(([value, text]) => (
              <option key={value} value={value} selected={value === sort}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <Alert message={error} />
      <p role="status" class="message" data-testid="links-status">
        {status}
      </p>
      {qrOf !== null && (
        <section class="qr-panel" aria-label={`QR code of ${qrOf.short_url}`}>
          <QrCode link={qrOf} size={160} />
          <button
            type="button"
            class="secondary small"
            onClick={() => {
              setQrOf(null);
            }}
          >
            Close
          </button>
        </section>
      )}
      <div class="scroll" data-testid="links-scroll">
        <table class="links">
          <caption class="visually-hidden">Links</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Title and destination</th>
              <th scope="col">Tags</th>
              <th scope="col">State</th>
              {admin && <th scope="col">Owner</th>}
              <th scope="col" class="num">
                Clicks
              </th>
              <th scope="col">Expires</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {page?.items.length === 0 && (
              <tr>
                <td colSpan={columns} class="empty">
                  No links match
                </td>
              </tr>
            )}
            {page?.items.map((link) => (
              <tr key={link.id} data-code={link.code}>
                <CodeCell link={link} />
                <td class="destination" title={link.destination}>
                  {link.title !== null && <strong class="title">{link.title}</strong>}
                  {link.title !== null && <br />}
                  {link.destination}
                </td>
                <td>
                  <span class="tags">
                    {link.tags.map((t) => (
                      <span class="tag" key={t}>
                        {t}
                      </span>
                    ))}
                  </span>
                </td>
                <td>
                  <StateBadge state={link.state} />
                </td>
                {admin && <td>{link.owner}</td>}
                <td class="num">{count(link.clicks)}</td>
                <td class="day" title={dateTime(link.expires_at)}>
                  {link.expires_at === null ? 'never' : date(link.expires_at)}
                </td>
                <td class="day" title={dateTime(link.created_at)}>
                  {date(link.created_at)}
                </td>
                <td>
                  <RowActions link={link} onCopy={copy} onQr={setQrOf} onAct={act} />
                </td>
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

/** Copy the short URL, show its QR code, disable or enable: a deleted link has none. */
function RowActions(props: {
  link: Link;
  onCopy: (link: Link) => void;
  onQr: (link: Link) => void;
  onAct: (done: string, action: () => Promise<unknown>) => void;
}) {
  const { link, onCopy, onQr, onAct } = props;
  if (link.state === 'deleted') return null;
  const toggle =
    link.state === 'disabled'
      ? { verb: 'Enable', done: 'Enabled', action: () => api.enable(link.id) }
      : { verb: 'Disable', done: 'Disabled', action: () => api.disable(link.id) };
  return (
    <span class="row-actions">
      <button
        type="button"
        class="secondary small"
        aria-label={`Copy ${link.short_url}`}
        onClick={() => {
          onCopy(link);
        }}
      >
        Copy
      </button>
      <button
        type="button"
        class="secondary small"
        aria-label={`QR code of ${link.code}`}
        onClick={() => {
          onQr(link);
        }}
      >
        QR
      </button>
      <button
        type="button"
        class="secondary small"
        aria-label={`${toggle.verb} ${link.code}`}
        onClick={() => {
          onAct(`${toggle.done} ${link.code}`, toggle.action);
        }}
      >
        {toggle.verb}
      </button>
    </span>
  );
}
