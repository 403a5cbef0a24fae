import { DEFAULT_DOMAIN, type LinkDomain } from '../../domain/link-domain.js';
import type { DomainServiceDeps } from './domain-service-deps.js';

/** A domain as the API and the CLI show it: the default under the host of HOP_PUBLIC_URL. */
export interface DomainView {
  /** The host people type: the default domain's is HOP_PUBLIC_URL's. */
  readonly host: string;
  readonly isDefault: boolean;
  readonly rootRedirect: string | null;
  readonly notFoundRedirect: string | null;
  readonly https: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * The stored domain as shown. The default domain's scheme is HOP_PUBLIC_URL's, and its
 * root redirect falls back to HOP_ROOT_REDIRECT while its own is unset (ADR 0117).
 */
export function domainViewOf(deps: DomainServiceDeps, domain: LinkDomain): DomainView {
  if (domain.host !== DEFAULT_DOMAIN) return { ...domain, isDefault: false };
  return {
    host: deps.defaultHost,
    isDefault: true,
    rootRedirect: domain.rootRedirect ?? deps.defaultRootRedirect,
    notFoundRedirect: domain.notFoundRedirect,
    https: deps.defaultHttps,
    createdAt: domain.createdAt,
    updatedAt: domain.updatedAt,
  };
}
