import type { LinkDomain } from '../domain/link-domain.js';

export type DeleteDomainResult = 'deleted' | 'not-found' | 'in-use';

/** The short domains other than the default one (issue 22), as the domain use cases need them. */
export interface DomainStore {
  /** Stores a new domain; false when a domain with this host exists already. */
  insertDomain(domain: LinkDomain): Promise<boolean>;
  /** Every domain, by host. */
  listDomains(): Promise<readonly LinkDomain[]>;
  /** The domain with this host, or null. */
  findDomain(host: string): Promise<LinkDomain | null>;
  /** Replaces the stored domain with the same host; false when there is none. */
  updateDomain(domain: LinkDomain): Promise<boolean>;
  /**
   * Deletes the domain unless a link (of any state but purged, tombstones included) is on
   * it, atomically: `in-use` then, and nothing is deleted.
   */
  deleteDomain(host: string): Promise<DeleteDomainResult>;
}
