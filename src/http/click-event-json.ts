import type { ClickEventRecord, DimensionCounts } from '../services/events/event-hub.js';

/** `link.clicked` on the wire: the clicks of one link within one second (issue 23). */
export interface ClickEventJson {
  type: 'link.clicked';
  /** The second the clicks happened in (RFC 3339). */
  timestamp: string;
  data: {
    link_id: string;
    /** The first instant of the second (RFC 3339). */
    second: string;
    /** The count and the dimensions (issue 23: `data.clicks`). */
    clicks: {
      /** People's clicks. */
      count: number;
      /** Crawlers' and link unfurlers' clicks, in no dimension (ADR 0094). */
      bot_count: number;
      countries: Record<string, number>;
      devices: Record<string, number>;
      browsers: Record<string, number>;
      os: Record<string, number>;
      referrers: Record<string, number>;
      languages: Record<string, number>;
    };
  };
}

/**
 * The one rendering of a click event, as the event stream sends it (ADR 0129), in the body
 * shape of a webhook delivery (`type`, `timestamp`, `data`).
 */
export function toClickEventJson(record: ClickEventRecord): ClickEventJson {
  const second = new Date(record.second).toISOString();
  return {
    type: 'link.clicked',
    timestamp: second,
    data: {
      link_id: record.linkId,
      second,
      clicks: {
        count: record.clicks,
        bot_count: record.botClicks,
        countries: copyOf(record.countries),
        devices: copyOf(record.devices),
        browsers: copyOf(record.browsers),
        os: copyOf(record.oses),
        referrers: copyOf(record.referrers),
        languages: copyOf(record.languages),
      },
    },
  };
}

/** A plain object of the counts, so that no prototype or extra key reaches the wire. */
function copyOf(counts: DimensionCounts): Record<string, number> {
  const copy: Record<string, number> = {};
  for (const [value, clicks] of Object.entries(counts)) copy[value] = clicks;
  return copy;
}
