import type { ClickEventRecord, DimensionCounts } from '../../ports/event-log.js';

/** `link.clicked`'s `data` (issue 23): a link's clicks within one second, counted and by dimension. */
export interface ClickedEventData {
  readonly link_id: string;
  /** The second's start, RFC 3339. */
  readonly second: string;
  readonly clicks: {
    readonly count: number;
    /** Bots' clicks (ADR 0094): in no dimension. */
    readonly bot_count: number;
    readonly countries: DimensionCounts;
    readonly devices: DimensionCounts;
    readonly browsers: DimensionCounts;
    readonly operating_systems: DimensionCounts;
    readonly referrers: DimensionCounts;
    readonly languages: DimensionCounts;
  };
}

/** The one place a click event becomes `link.clicked`'s `data`. */
export function clickedEventData(record: ClickEventRecord): ClickedEventData {
  return {
    link_id: record.linkId,
    second: new Date(record.second).toISOString(),
    clicks: {
      count: record.clicks,
      bot_count: record.botClicks,
      countries: record.countries,
      devices: record.devices,
      browsers: record.browsers,
      operating_systems: record.oses,
      referrers: record.referrers,
      languages: record.languages,
    },
  };
}
