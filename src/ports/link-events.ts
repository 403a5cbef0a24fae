import type { Link } from '../domain/link.js';

/** Told of every successful write to a link, after it committed. */
export interface LinkEvents {
  /** A new link exists (its code may have been cached as absent). */
  linkCreated(link: Link): void;
  /** An existing link changed: edit, disable, enable, delete, expiry. */
  linkChanged(link: Link): void;
}

export const NO_LINK_EVENTS: LinkEvents = {
  linkCreated: () => undefined,
  linkChanged: () => undefined,
};
