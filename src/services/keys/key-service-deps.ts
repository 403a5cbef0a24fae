import type { ApiKeyStore } from '../../ports/api-key-store.js';
import type { Clock } from '../../ports/clock.js';

export interface KeyServiceDeps {
  readonly keys: ApiKeyStore;
  readonly clock: Clock;
  readonly newId: () => string;
  /** A new secret key with the recognisable `hop_` prefix. */
  readonly newSecret: () => string;
}
