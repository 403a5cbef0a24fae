import { CodeCell, copyShortUrl, QrCode, StateBadge } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { useEffect, useState } from 'preact/hooks';
import { BulkActions, BulkFailures, type BulkOutcome } from '../components/bulk-actions.js';
import { pageCursors, Pager } from '../components/pager.js';
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
const FILTERS = ['q', 'tag', 'domain', 'state', 'owner', 'sort'] as const;

/**
 * Search, filters, order and the page live in the URL fragment, so a search can be
 * bookmarked and Back and Forward work (the cursors as a stack: Pager). An owner's session
 * lists its own links only (the API scopes it), so the owner filter and column are an
 * admin's. Ticked links take bulk actions (issue 22); a new page or search unticks them.
 */
export function LinksPage({ params, admin }: { params: URLSearchParams; admin: boolean }) {
  const filter = (name: string) => params.get(name) ?? '';
  const [q, tag, domain, state, owner, sort] = FILTERS.map(filter) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const { cursor } = pageCursors(params);
  const {
    value: page,
    error,
    reload,
  } = useLoad(
    () => api.links({ q, tag, domain, state, owner: admin ? owner : '', sort, cursor }),
    [q, tag, domain, state, owner, sort, cursor],
  );
  // A key that may not list domains still lists its links: no domain filter then.
  const { value: domains } = useLoad(() => api.domains(), []);
  const [qrOf, setQrOf] = useState<Link | null>(null);
  const [status, setStatus] = useState('');
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  useEffect(() => {
    setTicked(new Set());
    setOutcome(null);
  }, [q, tag, domain, state, owner, sort, cursor]);
  const selectable = page?.items.filter((link) => link.state !== 'deleted') ?? [];
  const selected = selectable.filter((link) => ticked.has(link.id));
  const tick = (ids: readonly string[], on: boolean) => {
    setTicked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  };

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
        {domains !== null && (
          <label>
            Domain
            <select name="domain">
              <option value="" selected={domain === ''}>
                any
              </option>
              {domains.domains.map((d) => (
                <option key={d.host} value={d.host} selected={d.host === domain}>
                  {d.host}
                </option>
              ))}
            </select>
          </label>
        )}
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
      <BulkFailures outcome={outcome} />
      {selected.length > 0 && (
        <BulkActions
          selected={selected}
          onDone={(done) => {
            setStatus(done.message);
            setOutcome(done);
            // After a delete only the links it could not delete stay ticked.
            if (done.deleted) setTicked(new Set(done.failures.map((failure) => failure.id)));
            reload();
          }}
        />
      )}
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
              <th scope="col" class="pick">
                <input
                  type="checkbox"
                  aria-label="Select every link on this page"
                  checked={selectable.length > 0 && selected.length === selectable.length}
                  disabled={selectable.length === 0}
                  onChange={(event) => {
                    tick(
                      selectable.map((link) => link.id),
                      event.currentTarget.checked,
                    );
                  }}
                />
              </th>
              <th scope="col">Code and domain</th>
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
                <td class="pick">
                  {link.state !== 'deleted' && (
                    <input
                      type="checkbox"
                      aria-label={`Select ${link.code}`}
                      checked={ticked.has(link.id)}
                      onChange={(event) => {
                        tick([link.id], event.currentTarget.checked);
                      }}
                    />
                  )}
                </td>
                <CodeCell link={link} domain />
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
      <Pager base="#/links" params={params} nextCursor={page?.next_cursor} />
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
