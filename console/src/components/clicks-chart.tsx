import type { Analytics } from '../api.js';
import { count } from '../format.js';

const WIDTH = 640;
const HEIGHT = 180;

/**
 * Clicks per bucket as bars, drawn as SVG by hand: a bar chart is a few rectangles, not a
 * charting library. The SVG scales with the page, so its labels are HTML beside it, at
 * the page's own type size on any screen; an empty range draws no scale at all (a "1"
 * over nothing says nothing). Each bar has a tooltip; total and range are said in text.
 */
export function ClicksChart({
  analytics,
}: {
  analytics: Pick<Analytics, 'series' | 'bucket' | 'total' | 'from' | 'to'>;
}) {
  const series = analytics.series;
  const max = Math.max(0, ...series.map((point) => point.clicks));
  const slot = WIDTH / Math.max(1, series.length);
  const label = (iso: string) =>
    analytics.bucket === 'hour'
      ? new Date(iso).toLocaleString('en-GB', {
          day: 'numeric',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
          timeZone: 'UTC',
        })
      : new Date(iso).toLocaleDateString('en-GB', {
          day: 'numeric',
          month: 'short',
          timeZone: 'UTC',
        });
  const first = series[0];
  const last = series[series.length - 1];
  return (
    <figure class="chart">
      {max > 0 ? (
        <p class="axis axis-y" data-testid="chart-max">
          {count(max)}
        </p>
      ) : (
        <p class="axis axis-y empty-range">No clicks in this range</p>
      )}
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${count(analytics.total)} clicks, by ${analytics.bucket}`}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} class="baseline" />
        {max > 0 &&
          series.map((point, index) => {
            const height = (point.clicks / max) * (HEIGHT - 4);
            return (
              <rect
                key={point.start}
                data-clicks={point.clicks}
                x={index * slot + slot * 0.1}
                y={HEIGHT - height}
                width={Math.max(1, slot * 0.8)}
                height={height}
                class="bar"
              >
                <title>{`${label(point.start)}: ${count(point.clicks)}`}</title>
              </rect>
            );
          })}
      </svg>
      {first !== undefined && last !== undefined && (
        <p class="axis axis-x">
          <span>{label(first.start)}</span>
          <span>{label(last.start)}</span>
        </p>
      )}
      <figcaption>
        <strong data-testid="clicks-total">{count(analytics.total)}</strong> clicks by{' '}
        {analytics.bucket}, {label(analytics.from)} to {label(analytics.to)} (UTC)
      </figcaption>
    </figure>
  );
}
