import { useState } from 'preact/hooks';
import { formText } from '../form-text.js';
import { localDateTime } from '../format.js';

/**
 * The chart's range: `default` asks for none, so the API's own default answers (the last
 * 7 days by hour, src/services/analytics/get-link-analytics.ts); the others name theirs.
 */
export type ChartRange =
  | { readonly kind: 'default' }
  | { readonly kind: '24h' }
  | { readonly kind: '30d' }
  | { readonly kind: '90d' }
  | { readonly kind: 'custom'; readonly from: string; readonly to: string };

const HOUR_MS = 3_600_000;
/** Longer custom ranges go by day: hourly bars past a week are too thin to read. */
const HOURLY_UP_TO_MS = 7 * 24 * HOUR_MS;

/** The analytics query of a range; {} for the API's default. */
export function rangeQuery(range: ChartRange): { bucket?: string; from?: string; to?: string } {
  switch (range.kind) {
    case 'default':
      return {};
    case '24h':
      return { bucket: 'hour', from: new Date(Date.now() - 24 * HOUR_MS).toISOString() };
    case '30d':
      // By day with no from: the API's own 30 days.
      return { bucket: 'day' };
    case '90d':
      // By day: 90 days by hour would pass the API's bound on points.
      return { bucket: 'day', from: new Date(Date.now() - 90 * 24 * HOUR_MS).toISOString() };
    case 'custom': {
      const span = Date.parse(range.to) - Date.parse(range.from);
      return { bucket: span <= HOURLY_UP_TO_MS ? 'hour' : 'day', from: range.from, to: range.to };
    }
  }
}

type Preset = readonly [Exclude<ChartRange['kind'], 'custom'>, string];
const PRESETS: readonly Preset[] = [
  ['24h', '24 h'],
  ['default', '7 d'],
  ['30d', '30 d'],
];
/** The dashboard's ranges (issue 23): a quarter too, by day. */
export const DASHBOARD_PRESETS: readonly Preset[] = [...PRESETS, ['90d', '90 d']];

/** 24 h, 7 d (the API's default), 30 d, or a custom from/to in the browser's time. */
export function RangePicker(props: {
  range: ChartRange;
  onChange: (range: ChartRange) => void;
  presets?: readonly Preset[];
}) {
  const { range, onChange, presets = PRESETS } = props;
  const [custom, setCustom] = useState(range.kind === 'custom');
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const from = formText(form, 'from');
    const to = formText(form, 'to');
    if (from === '' || to === '') return;
    onChange({
      kind: 'custom',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    });
  };
  return (
    <div class="range">
      <div role="group" aria-label="Range" class="toggle">
        {presets.map(([kind, text]) => (
          <button
            key={kind}
            type="button"
            aria-pressed={!custom && range.kind === kind}
            onClick={() => {
              setCustom(false);
              onChange({ kind });
            }}
          >
            {text}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={custom}
          onClick={() => {
            setCustom(true);
          }}
        >
          Custom
        </button>
      </div>
      {custom && (
        <form class="custom-range" onSubmit={apply} noValidate>
          <label>
            From
            <input
              name="from"
              type="datetime-local"
              defaultValue={range.kind === 'custom' ? localDateTime(range.from) : ''}
            />
          </label>
          <label>
            To
            <input
              name="to"
              type="datetime-local"
              defaultValue={range.kind === 'custom' ? localDateTime(range.to) : ''}
            />
          </label>
          <button type="submit">Show</button>
        </form>
      )}
    </div>
  );
}
