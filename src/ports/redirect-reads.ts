import type { RedirectTarget } from '../domain/redirect-target.js';

/** The redirect's store read: what a cache miss asks the store (SPEC §5). */
export interface RedirectReads {
  /**
   * What a redirect needs of the link holding this code on this domain (a stored host,
   * `''` the default; any state), or null: the
   * redirect's store read, which reads no more than it must. `primary`: read where writes
   * go, never a replica that may not have replayed the latest change.
   */
  findRedirectByCode(
    domain: string,
    code: string,
    options?: { readonly primary?: boolean },
  ): Promise<RedirectTarget | null>;
  /**
   * The same read, answered before returning; throws what `findRedirectByCode` rejects
   * with. Only a store whose read never waits on a network has it: the embedded SQLite
   * file, whose driver reads synchronously either way (ADR 0155). Absent elsewhere.
   */
  findRedirectByCodeNow?(domain: string, code: string): RedirectTarget | null;
}
