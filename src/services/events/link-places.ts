import type { LinkRepository } from '../../ports/link-repository.js';
import type { LinkPlace } from './event-visibility.js';

/** Links whose owner and domain are remembered; past it the memo starts afresh. */
export const LINK_PLACES_MAX_ENTRIES = 10_000;

/**
 * The owner and domain of a link by its id, for click events (they carry only the link's
 * id): read once, then remembered. Neither ever changes for an id (a link's domain is part
 * of its key), so a remembered answer is never stale. Unknown ids are not remembered.
 */
export class LinkPlaces {
  readonly #links: Pick<LinkRepository, 'findLinkById'>;
  readonly #maxEntries: number;
  readonly #known = new Map<string, LinkPlace>();

  constructor(
    links: Pick<LinkRepository, 'findLinkById'>,
    maxEntries: number = LINK_PLACES_MAX_ENTRIES,
  ) {
    this.#links = links;
    this.#maxEntries = maxEntries;
  }

  /** The link's place; null when no link has this id. */
  async placeOf(linkId: string): Promise<LinkPlace | null> {
    const known = this.#known.get(linkId);
    if (known !== undefined) return known;
    const link = await this.#links.findLinkById(linkId);
    if (link === null) return null;
    this.remember(linkId, { owner: link.owner, domain: link.domain });
    return this.#known.get(linkId) ?? null;
  }

  /** Remembers a place learnt elsewhere (a link event names its link's). */
  remember(linkId: string, place: LinkPlace): void {
    if (this.#known.has(linkId)) return;
    if (this.#known.size >= this.#maxEntries) this.#known.clear();
    this.#known.set(linkId, { owner: place.owner, domain: place.domain });
  }
}
