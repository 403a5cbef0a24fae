import type { ClickEventRecord } from '../services/events/event-hub.js';
import {
  clickedEventData,
  type ClickedEventData,
} from '../services/webhooks/clicked-event-data.js';

/** `link.clicked` on the wire: the clicks of one link within one second (issue 23). */
export interface ClickEventJson {
  readonly type: 'link.clicked';
  /** The second the clicks happened in (RFC 3339). */
  readonly timestamp: string;
  readonly data: ClickedEventData;
}

/**
 * A click event as the event stream sends it (ADR 0129): the body of a webhook delivery
 * (`type`, `timestamp`, `data`), its `data` made by the webhooks' one function, so that a
 * stream and a webhook never tell the same clicks two ways.
 */
export function toClickEventJson(record: ClickEventRecord): ClickEventJson {
  const data = clickedEventData(record);
  return { type: 'link.clicked', timestamp: data.second, data };
}
