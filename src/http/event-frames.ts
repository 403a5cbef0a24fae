import { NO_CLICKS } from '../domain/click-fold.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import type {
  ClickEventRecord,
  EventHub,
  HubEvent,
  LinkEventRecord,
} from '../services/events/event-hub.js';
import type { EventStreams } from '../services/events/event-streams.js';
import { formatStreamPosition } from '../services/events/stream-position.js';
import { toClickEventJson } from './click-event-json.js';
import { toLinkJson } from './link-json.js';
import { sseEventBody, sseFrame } from './sse-response.js';

/**
 * The event streams of `hub`, each event rendered as its Server-Sent Events frame: what
 * `GET /v1/events` writes. Runs where the hub runs: in-process, or in `hop serve`'s
 * integrations thread (ADR 0132).
 */
export function hubEventStreams(hub: EventHub, domainRoutes: DomainRoutes): EventStreams {
  const render = eventRenderer(domainRoutes);
  return {
    open: (principal, from, frames) =>
      hub.open(principal, from, {
        deliver: (event, position) =>
          frames.send(sseFrame(formatStreamPosition(position), render(event))),
        ready: () => frames.ready(),
        end: (reason) => {
          frames.end(reason);
        },
      }),
    close: () => hub.close(),
  };
}

/**
 * An event's `event:` and `data:` lines, made once per event however many streams send it:
 * the body of a webhook delivery, the link as the API writes it (its state as of the
 * change).
 */
function eventRenderer(domainRoutes: DomainRoutes): (event: HubEvent) => string {
  const rendered = new WeakMap<LinkEventRecord | ClickEventRecord, string>();
  return (event) => {
    const known = rendered.get(event.record);
    if (known !== undefined) return known;
    let body: string;
    if (event.kind === 'click') {
      body = sseEventBody('link.clicked', JSON.stringify(toClickEventJson(event.record)));
    } else {
      const { record } = event;
      const json = {
        type: record.type,
        timestamp: new Date(record.occurredAt).toISOString(),
        data: toLinkJson(record.link, domainRoutes, record.occurredAt, NO_CLICKS),
      };
      body = sseEventBody(record.type, JSON.stringify(json));
    }
    rendered.set(event.record, body);
    return body;
  };
}
