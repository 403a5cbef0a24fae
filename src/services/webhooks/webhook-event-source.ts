import type { Link } from '../../domain/link.js';
import type { WebhookEventType } from '../../domain/webhook.js';
import type { ClickEventLog, EventLog, LinkEventLog } from '../../ports/event-log.js';
import { clickedEventData } from './clicked-event-data.js';

/** One event as webhooks see it: what it is, whose link, when, and its `data`. */
export interface WebhookEvent {
  readonly type: WebhookEventType;
  /** The owner of the link it is about: only their webhooks (and admins') get it. */
  readonly linkOwner: string;
  /** Epoch ms: the body's `timestamp`. */
  readonly occurredAt: number;
  /**
   * The last instant the event covers: `occurredAt` for a link's change, the second's last
   * millisecond for its clicks. A webhook gets the events that end at or after its creation,
   * so the clicks of the second it was made in are not lost to rounding down.
   */
  readonly lastAt: number;
  /** The body's `data`, as JSON. */
  readonly data: unknown;
}

/**
 * An event log as the fan-out reads it (ADR 0128): each has a name (its fan-out position
 * is kept under it) and reads events in order after a position.
 */
export interface WebhookEventSource {
  readonly name: string;
  /** The log's newest position: where a fan-out with no webhook to serve skips to. */
  latest(): Promise<string>;
  read(
    position: string,
    limit: number,
  ): Promise<{ readonly events: readonly WebhookEvent[]; readonly position: string }>;
}

/** A source over any event log: `toEvent` null drops a record (its link is gone). */
export function eventLogSource<Record extends { readonly position: string }>(
  name: string,
  log: EventLog<Record>,
  toEvent: (record: Record) => Promise<WebhookEvent | null> | WebhookEvent | null,
): WebhookEventSource {
  return {
    name,
    latest: () => log.latest(),
    async read(position, limit) {
      const records = await log.after(position, limit);
      const events: WebhookEvent[] = [];
      for (const record of records) {
        const event = await toEvent(record);
        if (event !== null) events.push(event);
      }
      return { events, position: records.at(-1)?.position ?? position };
    },
  };
}

/** The fan-out position name of link events. */
export const LINK_EVENTS_SOURCE = 'link-events';
/** The fan-out position name of click events. */
export const CLICK_EVENTS_SOURCE = 'click-events';

/**
 * Renders links as the API's link JSON, as each event left it at its time (`atMs`), in
 * one go (the click totals are read once per page). Injected by the composition root.
 */
export type RenderLinks = (
  links: readonly { readonly link: Link; readonly atMs: number }[],
) => Promise<readonly unknown[]>;

/** link.created/updated/deleted, `data` the API's link JSON as `renderLinks` makes it. */
export function linkEventSource(log: LinkEventLog, renderLinks: RenderLinks): WebhookEventSource {
  return {
    name: LINK_EVENTS_SOURCE,
    latest: () => log.latest(),
    async read(position, limit) {
      const records = await log.after(position, limit);
      const data = await renderLinks(
        records.map((record) => ({ link: record.link, atMs: record.occurredAt })),
      );
      const events = records.map((record, index) => ({
        type: record.type,
        linkOwner: record.link.owner,
        occurredAt: record.occurredAt,
        lastAt: record.occurredAt,
        data: data[index],
      }));
      return { events, position: records.at(-1)?.position ?? position };
    },
  };
}

/** link.clicked, one per link and second; `ownerOf` null (no such link) drops it. */
export function clickEventSource(
  log: ClickEventLog,
  ownerOf: (linkId: string) => Promise<string | null>,
): WebhookEventSource {
  return eventLogSource(CLICK_EVENTS_SOURCE, log, async (record) => {
    const owner = await ownerOf(record.linkId);
    if (owner === null) return null;
    return {
      type: 'link.clicked',
      linkOwner: owner,
      occurredAt: record.second,
      lastAt: record.second + 999,
      data: clickedEventData(record),
    };
  });
}
