import type { Config } from '../config/config.js';
import { hubEventStreams } from '../http/event-frames.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../ports/store.js';
import { EventHub } from '../services/events/event-hub.js';
import type { EventStreams } from '../services/events/event-streams.js';
import type { LinkPlaces } from '../services/events/link-places.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';

/**
 * The event streams over one hub polling `store`'s logs (ADR 0129), each event rendered
 * as `GET /v1/events` sends it. `whileStreaming`: a stream is open, so click events must be
 * written (ADR 0131).
 */
export function composeEventStreams(
  config: Config,
  store: Store,
  logger: Logger,
  places: { readonly domainRoutes: DomainRoutes; readonly linkPlaces: LinkPlaces },
  whileStreaming: () => void,
): EventStreams {
  const hub = new EventHub({
    links: store.linkEvents,
    // link.clicked, per link and second, written by the fold (ADR 0125).
    clicks: store.clickEvents,
    places: places.linkPlaces,
    pollIntervalMs: config.eventPollIntervalMs,
    streamsPerKey: config.eventStreamsPerKey,
    whileStreaming,
    onError: (error) => {
      logger.warn({ err: error }, 'the event stream could not read the event logs');
    },
  });
  return hubEventStreams(hub, places.domainRoutes);
}
