import { copyShortUrl, QrCode, StateBadge } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { useCallback, useState } from 'preact/hooks';
import type { LiveEvent } from '../live-events.js';
import { useLiveRefresh } from '../components/use-live-refresh.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { api, ApiError, type Link } from '../api.js';
import { Breakdowns } from '../components/breakdowns.js';
import { ClicksChart } from '../components/clicks-chart.js';
import { formErrors, NO_ERRORS, type FormErrors } from '../components/field-errors.js';
import { LINK_FIELDS, LinkFields, linkFieldsBody } from '../components/link-fields.js';
import { SmartDetails } from '../components/smart-summary.js';
import { SmartFields } from '../components/smart-fields.js';
import { RangePicker, rangeQuery, type ChartRange } from '../components/range-picker.js';
import { useLoad } from '../components/use-load.js';
import { count, dateTime } from '../format.js';
import { go } from '../router.js';
import { smartErrorFields, smartFieldsBody } from '../smart-body.js';

/** One link: what it is, its clicks over time and by dimension, its QR code, its actions. */
export function LinkPage({ id }: { id: string }) {
  const {
    value: link,
    error,
    setValue: setLink,
    reload: reloadLink,
  } = useLoad(() => api.link(id), [id]);
  // The API's own default range until another is picked: the request names none.
  const [range, setRange] = useState<ChartRange>({ kind: 'default' });
  // Said outside the edit form, which starts afresh with every saved version.
  const [saved, setSaved] = useState('');
  const {
    value: analytics,
    error: analyticsError,
    reload: reloadAnalytics,
  } = useLoad(() => api.analytics(id, rangeQuery(range)), [id, range]);
  // Live (issue 23): this link's changes and clicks, from the event stream.
  const aboutThisLink = useCallback((event: LiveEvent) => event.linkId === id, [id]);
  const reloadAll = useCallback(() => {
    reloadLink();
    reloadAnalytics();
  }, [reloadLink, reloadAnalytics]);
  useLiveRefresh(reloadAll, undefined, aboutThisLink);

  if (link === null) {
    return error === '' ? (
      <p class="loading">Loading…</p>
    ) : (
      <p role="alert" class="error">
        {error}
      </p>
    );
  }
  return (
    <>
      <h1>
        <span class="code">{link.code}</span> <StateBadge state={link.state} testId="link-state" />
      </h1>
      <div class="link-layout">
        <section aria-labelledby="details">
          <h2 id="details">Details</h2>
          <Details link={link} />
          <Actions link={link} onChanged={setLink} />
          <EditLink
            key={link.version}
            link={link}
            onChanged={(changed) => {
              setLink(changed);
              setSaved(`Saved version ${changed.version}: the next redirect uses it.`);
            }}
          />
          <p role="status" class="message" data-testid="saved">
            {saved}
          </p>
        </section>
        <section aria-labelledby="qr" class="qr">
          <h2 id="qr">QR code</h2>
          <QrCode link={link} size={192} />
        </section>
      </div>
      <section aria-labelledby="clicks">
        <div class="section-head">
          <h2 id="clicks">Clicks</h2>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              reloadLink();
              reloadAnalytics();
            }}
          >
            Refresh
          </button>
        </div>
        <RangePicker range={range} onChange={setRange} />
        <Alert message={analyticsError} />
        {analytics === null && analyticsError === '' && <p class="loading">Loading clicks…</p>}
        {analytics !== null && (
          <>
            <ClicksChart analytics={analytics} />
            <Breakdowns analytics={analytics} />
          </>
        )}
      </section>
    </>
  );
}

function Details({ link }: { link: Link }) {
  const [copied, setCopied] = useState('');
  const copy = () => {
    void copyShortUrl(link).then((outcome) => {
      setCopied(
        outcome === 'copied'
          ? 'Copied'
          : outcome === 'insecure'
            ? 'Copying needs https: select the link and copy it yourself'
            : 'Copy failed: select the link and copy it yourself',
      );
    });
  };
  return (
    <dl class="details">
      <dt>Short URL</dt>
      <dd>
        <a href={link.short_url} data-testid="short-url">
          {link.short_url}
        </a>{' '}
        <button type="button" class="secondary small" onClick={copy}>
          Copy
        </button>{' '}
        <span role="status">{copied}</span>
      </dd>
      <dt>Domain</dt>
      <dd data-testid="domain">{link.domain}</dd>
      <dt>Destination</dt>
      <dd class="destination" data-testid="destination">
        {link.destination}
      </dd>
      <dt>Redirect</dt>
      <dd>{link.status_code}</dd>
      <dt>Owner</dt>
      <dd>{link.owner}</dd>
      {link.title !== null && (
        <>
          <dt>Title</dt>
          <dd>{link.title}</dd>
        </>
      )}
      {link.tags.length > 0 && (
        <>
          <dt>Tags</dt>
          <dd>{link.tags.join(', ')}</dd>
        </>
      )}
      <dt>Clicks</dt>
      <dd>{count(link.clicks)}</dd>
      <dt>Created</dt>
      <dd>{dateTime(link.created_at)}</dd>
      <dt>Expires</dt>
      <dd>{link.expires_at === null ? 'never' : dateTime(link.expires_at)}</dd>
      <SmartDetails link={link} />
    </dl>
  );
}

function Actions({ link, onChanged }: { link: Link; onChanged: (link: Link) => void }) {
  const [message, setMessage] = useState('');
  const act = (action: () => Promise<Link | undefined>, done: string) => {
    setMessage('');
    action().then(
      (changed) => {
        setMessage(done);
        if (changed !== undefined) onChanged(changed);
      },
      (e: unknown) => {
        setMessage(e instanceof ApiError ? e.message : 'That did not work.');
      },
    );
  };
  if (link.state === 'deleted') return null;
  return (
    <div class="actions">
      {link.state === 'disabled' ? (
        <button
          type="button"
          onClick={() => {
            act(() => api.enable(link.id), 'Enabled: it redirects again.');
          }}
        >
          Enable
        </button>
      ) : (
        <button
          type="button"
          onClick={() => {
            act(() => api.disable(link.id), 'Disabled: it answers 404 now.');
          }}
        >
          Disable
        </button>
      )}
      <ConfirmButton
        label="Delete"
        confirm="Delete for good"
        keep="Keep it"
        onConfirm={() => {
          api.remove(link.id).then(
            () => {
              go('#/links');
            },
            (e: unknown) => {
              setMessage(e instanceof ApiError ? e.message : 'Deleting failed.');
            },
          );
        }}
      />
      <p role="status" class="message">
        {message}
      </p>
    </div>
  );
}

/**
 * Every field the API lets a PATCH change, the smart settings among them (issue 21). noValidate: the API's rules, not the browser's
 * bubble, say what is wrong, each under its field (and only there).
 */
function EditLink({ link, onChanged }: { link: Link; onChanged: (link: Link) => void }) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [message, setMessage] = useState('');
  if (link.state === 'deleted') return null;
  const save = (event: Event) => {
    event.preventDefault();
    setMessage('');
    setErrors(NO_ERRORS);
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body = { ...linkFieldsBody(form, link), ...smartFieldsBody(form, link) };
    if (Object.keys(body).length === 0) {
      setMessage('Nothing changed.');
      return;
    }
    api.update(link.id, body).then(
      (changed) => {
        onChanged(changed);
      },
      (e: unknown) => {
        setErrors(formErrors(e, [...LINK_FIELDS, ...smartErrorFields(form)]));
      },
    );
  };
  return (
    <form class="edit" onSubmit={save} noValidate aria-labelledby="edit-heading">
      <h3 id="edit-heading">Edit</h3>
      <LinkFields prefix="edit" link={link} errors={errors} />
      <SmartFields prefix="edit" link={link} errors={errors} />
      <button type="submit">Save changes</button>
      <Alert message={errors.general} />
      <p role="status" class="message">
        {message}
      </p>
    </form>
  );
}
