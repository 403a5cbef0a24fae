import { HopError, isHopError } from '../../../domain/errors.js';
import {
  DEFAULT_DOMAIN,
  normaliseDomainHost,
  storedDomainOf,
} from '../../../domain/link-domain.js';
import { canUseDomain, type Principal } from '../../../domain/principal.js';
import { createDomain } from '../../domains/create-domain.js';
import type { PeerImportDeps } from './peer-import-deps.js';

/** A row's domain: its stored host, or why the row cannot be on it. */
export type DomainVerdict =
  { readonly ok: true; readonly stored: string } | { readonly ok: false; readonly detail: string };

/**
 * The short domains of one import (ADR 0136): each host a row names is looked up once. A
 * host hop does not have is added, as Shlink's own import does, when the key may add
 * domains (`domains:write`, not limited to domains); else every row on it is reported.
 * A dry run adds nothing and answers as the real run would.
 */
export class PeerImportDomains {
  readonly #deps: PeerImportDeps;
  readonly #principal: Principal;
  readonly #dryRun: boolean;
  readonly #verdicts = new Map<string, DomainVerdict>();

  constructor(deps: PeerImportDeps, principal: Principal, dryRun: boolean) {
    this.#deps = deps;
    this.#principal = principal;
    this.#dryRun = dryRun;
  }

  /** The verdict for `host` (null: the default domain). Throws only when the store fails. */
  async verdictOf(host: string | null): Promise<DomainVerdict> {
    const key = host ?? '';
    const known = this.#verdicts.get(key);
    if (known !== undefined) return known;
    const verdict = await this.#decide(host);
    this.#verdicts.set(key, verdict);
    return verdict;
  }

  async #decide(host: string | null): Promise<DomainVerdict> {
    const stored =
      host === null || host.trim() === ''
        ? DEFAULT_DOMAIN
        : storedDomainOf(host, this.#deps.defaultHost);
    if (stored !== DEFAULT_DOMAIN) {
      try {
        normaliseDomainHost(stored, 'domain');
      } catch (error) {
        if (!isHopError(error)) throw error;
        return { ok: false, detail: `The domain "${host ?? ''}" is not a host name.` };
      }
    }
    if (!canUseDomain(this.#principal, stored)) {
      return { ok: false, detail: `This key may not use the domain "${host ?? ''}".` };
    }
    if (stored === DEFAULT_DOMAIN) return { ok: true, stored };
    if ((await this.#deps.domains.domains.findDomain(stored)) !== null) return { ok: true, stored };
    return this.#add(stored);
  }

  async #add(stored: string): Promise<DomainVerdict> {
    const mayAdd = this.#principal.scopes.has('domains:write') && this.#principal.domains === null;
    if (!mayAdd) {
      return {
        ok: false,
        detail: `hop has no domain "${stored}": add it (hop domains add ${stored}) and import again.`,
      };
    }
    if (this.#dryRun) return { ok: true, stored };
    try {
      await createDomain(this.#deps.domains, this.#principal, { host: stored });
    } catch (error) {
      if (!(error instanceof HopError) || error.retryable) throw error;
      // Added meanwhile by someone else: it is there, which is all the import needs.
      if (error.kind !== 'domain-exists') return { ok: false, detail: error.detail };
    }
    return { ok: true, stored };
  }
}
