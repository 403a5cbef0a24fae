import type { ApiKeyStore } from '../../ports/api-key-store.js';
import type { Clock } from '../../ports/clock.js';
import type { DomainStore } from '../../ports/domain-store.js';
import type { KeyUses } from './key-uses.js';

export interface KeyServiceDeps {
  readonly keys: ApiKeyStore;
  readonly clock: Clock;
  readonly newId: () => string;
  /** A new secret key with the recognisable `hop_` prefix. */
  readonly newSecret: () => string;
  /** The host of HOP_PUBLIC_URL: how the default domain (stored as `''`) is named on the wire. */
  readonly defaultHost: string;
  /** Where the domains a key is limited to are checked to exist. */
  readonly domains: Pick<DomainStore, 'findDomain'>;
  /** Keys' last use, written at most once a minute each. */
  readonly uses: KeyUses;
}
