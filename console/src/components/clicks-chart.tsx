import type { Analytics } from '../api.js';
import { count } from '../format.js';

const WIDTH = 640;
const HEIGHT = 180;
const AXIS = 24;

/**
 * Clicks per bucket as bars, drawn as SVG by hand: a bar chart is a few rectangles, not a
 * charting library. Each bar has a tooltip; the total and range are said in text too.
 */
export function ClicksChart({ analytics }: { analytics: Analytics }) {
  const series = analytics.series;
  const max = Math.max(1, ...series.map((point) => point.clicks));
  const slot = (WIDTH - AXIS) / Math.max(1, series.length);
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
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`}
        role="img"
        aria-label={`${count(analytics.total)} clicks, by ${analytics.bucket}`}
      >
        <text x={0} y={12} class="axis">
          {count(max)}
        </text>
        <line x1={AXIS} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} class="baseline" />
        {series.map((point, index) => {
          const height = (point.clicks / max) * (HEIGHT - 16);
          return (
            <rect
              key={point.start}
              data-clicks={point.clicks}
              x={AXIS + index * slot + slot * 0.1}
              y={HEIGHT - height}
              width={Math.max(1, slot * 0.8)}
              height={height}
              class="bar"
            >
              <title>{`${label(point.start)}: ${count(point.clicks)}`}</title>
            </rect>
          );
        })}
        {first !== undefined && (
          <text x={AXIS} y={HEIGHT + 16} class="axis">
            {label(first.start)}
          </text>
        )}
        {last !== undefined && (
          <text x={WIDTH} y={HEIGHT + 16} class="axis" text-anchor="end">
            {label(last.start)}
          </text>
        )}
      </svg>
      <figcaption>
        <strong data-testid="clicks-total">{count(analytics.total)}</strong> clicks by{' '}
        {analytics.bucket}, {label(analytics.from)} to {label(analytics.to)} (UTC)
      </figcaption>
    </figure>
  );
}
