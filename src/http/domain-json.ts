import type { DomainView } from '../services/domains/domain-view.js';

/** A domain on the wire (issue 22): snake_case, RFC 3339 times, as links are. */
export interface DomainJson {
  host: string;
  default: boolean;
  root_redirect: string | null;
  not_found_redirect: string | null;
  https: boolean;
  created_at: string;
  updated_at: string;
}

/** The one serializer of domains, for the API and the CLI's --json. */
export function toDomainJson(domain: DomainView): DomainJson {
  return {
    host: domain.host,
    default: domain.isDefault,
    root_redirect: domain.rootRedirect,
    not_found_redirect: domain.notFoundRedirect,
    https: domain.https,
    created_at: new Date(domain.createdAt).toISOString(),
    updated_at: new Date(domain.updatedAt).toISOString(),
  };
}
