import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { count, dateTime } from '../format.js';
import { Alert } from './alert.js';
import { Breakdowns } from './breakdowns.js';
import { ClicksChart } from './clicks-chart.js';
import { DASHBOARD_PRESETS, RangePicker, rangeQuery, type ChartRange } from './range-picker.js';
import { useLiveRefresh } from './use-live-refresh.js';
import { useLoad } from './use-load.js';

/**
 * Clicks across all the links the signed-in key can see (`GET /v1/analytics`, issue 23):
 * over time, the busiest links and the breakdowns, kept current by useLiveRefresh.
 */
export function AllLinksAnalytics() {
  const [range, setRange] = useState<ChartRange>({ kind: 'default' });
  const {
    value: analytics,
    error,
    reload,
  } = useLoad(() => api.allAnalytics(rangeQuery(range)), [range]);
  useLiveRefresh(reload);
  return (
    <section aria-labelledby="all-clicks" class="all-clicks">
      <h2 id="all-clicks">Clicks across your links</h2>
      <RangePicker range={range} onChange={setRange} presets={DASHBOARD_PRESETS} />
      <Alert message={error} />
      {analytics === null && error === '' && <p class="loading">Loading clicks…</p>}
      {analytics !== null && (
        <>
          <ClicksChart analytics={analytics} />
          <p class="note" data-testid="all-clicks-note">
            {count(analytics.bot_clicks)} bot clicks counted apart; clicks counted up to{' '}
            {dateTime(analytics.freshness)}.
          </p>
          <div class="scroll">
            <table class="links" data-testid="top-links">
              <caption>Top links in this range</caption>
              <thead>
                <tr>
                  <th scope="col">Short URL</th>
                  <th scope="col">Title</th>
                  <th scope="col" class="num">
                    Clicks
                  </th>
                </tr>
              </thead>
              <tbody>
                {analytics.top_links.length === 0 && (
                  <tr>
                    <td colSpan={3} class="empty">
                      No clicks in this range
                    </td>
                  </tr>
                )}
                {analytics.top_links.map((link) => (
                  <tr key={link.id}>
                    <td>
                      <a href={`#/links/${link.id}`}>
                        {link.short_url.replace(/^https?:\/\//, '')}
                      </a>
                    </td>
                    <td>{link.title ?? ''}</td>
                    <td class="num">{count(link.clicks)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Breakdowns analytics={analytics} />
        </>
      )}
    </section>
  );
}
