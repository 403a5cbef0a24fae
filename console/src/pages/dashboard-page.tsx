import { LinkCells } from '../components/link-cells.js';
import { Alert } from '../components/alert.js';
import { api } from '../api.js';
import { AllLinksAnalytics } from '../components/all-links-analytics.js';
import { useLiveRefresh } from '../components/use-live-refresh.js';
import { useLoad } from '../components/use-load.js';
import { count, dateTime, ms, rate } from '../format.js';

const REFRESH_MS = 2000;

/**
 * The dashboard: an admin's has the service's totals, busiest links and redirect rate
 * first (ADR 0068); everyone's has the clicks across the links its key can see (issue 23,
 * ADR 0126).
 */
export function DashboardPage({ admin }: { admin: boolean }) {
  return (
    <>
      <h1>Dashboard</h1>
      {admin && <ServiceFigures />}
      <AllLinksAnalytics />
    </>
  );
}

/** Totals, the busiest links, and the redirect rate and p99 of the last seconds, live. */
function ServiceFigures() {
  const { value: dashboard, error, reload } = useLoad(() => api.dashboard(), []);
  // The redirect rate is this instance's last seconds: refreshed faster than clicks fold.
  useLiveRefresh(reload, REFRESH_MS);

  return (
    <>
      <Alert message={error} />
      {dashboard !== null && (
        <>
          <dl class="cards">
            <Card
              label="Links"
              value={count(dashboard.links.total)}
              testId="links-total"
              note={`counted ${dateTime(dashboard.links.counted_at)}`}
            />
            <Card label="Active" value={count(dashboard.links.active)} testId="links-active" />
            <Card
              label="Disabled"
              value={count(dashboard.links.disabled)}
              testId="links-disabled"
            />
            <Card label="Expired" value={count(dashboard.links.expired)} testId="links-expired" />
            <Card label="Deleted" value={count(dashboard.links.deleted)} testId="links-deleted" />
            <Card
              label="Clicks today (UTC)"
              value={count(dashboard.clicks.today)}
              testId="clicks-today"
            />
            <Card
              label="Clicks, 7 days"
              value={count(dashboard.clicks.week)}
              testId="clicks-week"
            />
            <Card
              label="Redirects/s"
              value={rate(dashboard.redirects.per_second)}
              testId="redirect-rate"
              note={`last ${dashboard.redirects.window_seconds} s, this instance`}
            />
            <Card
              label="Redirect p99"
              value={ms(dashboard.redirects.p99_ms)}
              testId="redirect-p99"
              note="SLO < 20 ms"
            />
          </dl>
          <p class="note">
            Clicks counted up to {dateTime(dashboard.clicks.freshness)}; busiest links ranked at{' '}
            {dateTime(dashboard.busiest_ranked_at)}.
          </p>
          <div class="scroll">
            <table class="links">
              <caption>Busiest links, last 7 days</caption>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Destination</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">
                    Clicks
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.busiest.length === 0 && (
                  <tr>
                    <td colSpan={4} class="empty">
                      No clicks in the last 7 days
                    </td>
                  </tr>
                )}
                {dashboard.busiest.map(({ link, clicks }) => (
                  <tr key={link.id}>
                    <LinkCells link={link} />
                    <td class="num">{count(clicks)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function Card(props: { label: string; value: string; testId: string; note?: string }) {
  return (
    <div class="card">
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.value}</dd>
      {props.note !== undefined && <dd class="note">{props.note}</dd>}
    </div>
  );
}
