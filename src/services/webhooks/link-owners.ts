import type { LinkRepository } from '../../ports/link-repository.js';

/**
 * Who owns a link, by its id, for events that name only the id (a click event). An owner
 * never changes, so an answer is kept; at most `capacity` are, the oldest dropped first.
 * A link that does not exist (any more) is null and not kept.
 */
export class LinkOwners {
  readonly #links: Pick<LinkRepository, 'findLinkById'>;
  readonly #capacity: number;
  readonly #owners = new Map<string, string>();

  constructor(links: Pick<LinkRepository, 'findLinkById'>, capacity: number) {
    this.#links = links;
    this.#capacity = capacity;
  }

  async ownerOf(linkId: string): Promise<string | null> {
    const known = this.#owners.get(linkId);
    if (known !== undefined) return known;
    const link = await this.#links.findLinkById(linkId);
    if (link === null) return null;
    if (this.#owners.size >= this.#capacity) {
      const oldest = this.#owners.keys().next();
      if (oldest.done !== true) this.#owners.delete(oldest.value);
    }
    this.#owners.set(linkId, link.owner);
    return link.owner;
  }
}
