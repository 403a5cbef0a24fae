import { linkKey } from '../../domain/link-domain.js';
import type { LinkEventLog } from '../../ports/event-log.js';
import type { LinkChange, LinkChangeFeed } from '../../ports/link-change-feed.js';
import { positionOf, seqOf } from './mariadb-event-positions.js';

/**
 * Every instance's catch-up on changes made anywhere (issue 25, ADR 0141): the link events
 * the triggers write (ADR 0140), read in their settled order. NATS tells the other regions
 * of a change at once; a region cut off from them misses those messages, and Galera's IST
 * brings it the rows when it returns: following them, its instances' L1 learn the new
 * versions, refuse the older entries their region's Redis still holds, and read the store.
 * Creates are in it too: a code another region made, held here as absent, is read again.
 */
export class MariaDbLinkChangeFeed implements LinkChangeFeed {
  readonly #events: LinkEventLog;

  constructor(events: LinkEventLog) {
    this.#events = events;
  }

  async latest(): Promise<number> {
    return seqOf(await this.#events.latest());
  }

  async changesAfter(
    cursor: number,
    limit: number,
  ): Promise<{ readonly changes: readonly LinkChange[]; readonly cursor: number }> {
    const events = await this.#events.after(positionOf(cursor), limit);
    const changes = events.map((event) => ({
      code: linkKey(event.link.domain, event.link.code),
      version: event.link.version,
    }));
    const last = events.at(-1);
    return { changes, cursor: last === undefined ? cursor : seqOf(last.position) };
  }

  /** Link events are the webhooks' outbox: their own retention deletes them, never this. */
  async forgetBefore(): Promise<number> {
    return 0;
  }
}
