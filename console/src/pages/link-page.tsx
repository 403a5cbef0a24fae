import { StateBadge } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Link } from '../api.js';
import { Breakdown } from '../components/breakdown.js';
import { ClicksChart } from '../components/clicks-chart.js';
import { useLoad } from '../components/use-load.js';
import { count, dateTime } from '../format.js';
import { go } from '../router.js';

const HOUR_MS = 3_600_000;

/** One link: what it is, its clicks over time and by dimension, its QR code, its actions. */
export function LinkPage({ id }: { id: string }) {
  const {
    value: link,
    error,
    setValue: setLink,
    reload: reloadLink,
  } = useLoad(() => api.link(id), [id]);
  const [bucket, setBucket] = useState<'hour' | 'day'>('hour');
  // Hourly: the last two days, so bars stay readable; daily: the API's 30 days.
  const {
    value: analytics,
    error: analyticsError,
    reload: reloadAnalytics,
  } = useLoad(
    () =>
      api.analytics(
        id,
        bucket,
        bucket === 'hour' ? new Date(Date.now() - 47 * HOUR_MS).toISOString() : undefined,
      ),
    [id, bucket],
  );

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
          <EditDestination key={link.version} link={link} onChanged={setLink} />
        </section>
        <section aria-labelledby="qr" class="qr">
          <h2 id="qr">QR code</h2>
          <img
            src={api.qrUrl(link.id, 'svg', 192)}
            width={192}
            height={192}
            alt={`QR code of ${link.short_url}`}
          />
          <a href={api.qrUrl(link.id, 'png', 1024)} download={`${link.code}.png`}>
            Download PNG
          </a>
        </section>
      </div>
      <section aria-labelledby="clicks">
        <div class="section-head">
          <h2 id="clicks">Clicks</h2>
          <div role="group" aria-label="Bucket" class="toggle">
            {(['hour', 'day'] as const).map((b) => (
              <button
                key={b}
                type="button"
                aria-pressed={bucket === b}
                onClick={() => {
                  setBucket(b);
                }}
              >
                By {b}
              </button>
            ))}
          </div>
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
        <Alert message={analyticsError} />
        {analytics === null && analyticsError === '' && <p class="loading">Loading clicks…</p>}
        {analytics !== null && (
          <>
            <ClicksChart analytics={analytics} />
            <div class="breakdowns">
              <Breakdown
                caption="By country"
                rows={analytics.by_country.map((r) => ({ name: r.country, clicks: r.clicks }))}
              />
              <Breakdown
                caption="By device"
                rows={analytics.by_device.map((r) => ({ name: r.device, clicks: r.clicks }))}
              />
              <Breakdown
                caption="By referrer"
                rows={analytics.by_referrer.map((r) => ({
                  name: r.referrer === '' ? '(none)' : r.referrer,
                  clicks: r.clicks,
                }))}
              />
            </div>
          </>
        )}
      </section>
    </>
  );
}

function Details({ link }: { link: Link }) {
  const [copied, setCopied] = useState('');
  const copy = () => {
    // The clipboard API exists only in secure contexts (https, or localhost).
    if (!('clipboard' in navigator)) {
      setCopied('Copying needs https: select the link and copy it yourself');
      return;
    }
    navigator.clipboard.writeText(link.short_url).then(
      () => {
        setCopied('Copied');
      },
      () => {
        setCopied('Copy failed: select the link and copy it yourself');
      },
    );
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
    </dl>
  );
}

function Actions({ link, onChanged }: { link: Link; onChanged: (link: Link) => void }) {
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  // Focus follows the confirmation: onto "Delete for good" when asked, back after "Keep it".
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useLayoutEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (asked.current) deleteRef.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);
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
      {confirming ? (
        <>
          <button
            type="button"
            class="danger"
            ref={confirmRef}
            onClick={() => {
              api.remove(link.id).then(
                () => {
                  go('#/links');
                },
                (e: unknown) => {
                  setMessage(e instanceof ApiError ? e.message : 'Deleting failed.');
                },
              );
            }}
          >
            Delete for good
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setConfirming(false);
            }}
          >
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          class="danger"
          ref={deleteRef}
          onClick={() => {
            setConfirming(true);
          }}
        >
          Delete
        </button>
      )}
      <p role="status" class="message">
        {message}
      </p>
    </div>
  );
}

function EditDestination({ link, onChanged }: { link: Link; onChanged: (link: Link) => void }) {
  const [destination, setDestination] = useState(link.destination);
  const [message, setMessage] = useState('');
  if (link.state === 'deleted') return null;
  const save = (event: Event) => {
    event.preventDefault();
    setMessage('');
    api.update(link.id, { destination: destination.trim() }).then(
      (changed) => {
        onChanged(changed);
        setMessage('Saved: the next redirect goes there.');
      },
      (e: unknown) => {
        setMessage(e instanceof ApiError ? e.message : 'Saving failed.');
      },
    );
  };
  return (
    <form class="edit" onSubmit={save}>
      <label for="destination">Destination</label>
      <input
        id="destination"
        type="url"
        required
        value={destination}
        onInput={(e) => {
          setDestination(e.currentTarget.value);
        }}
      />
      <button type="submit">Save destination</button>
      <p role="status" class="message">
        {message}
      </p>
    </form>
  );
}
