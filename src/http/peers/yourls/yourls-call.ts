import type { Principal } from '../../../domain/principal.js';
import type { AppDeps } from '../../app-deps.js';
import type { YourlsParams } from './yourls-params.js';

/** One authenticated YOURLS call, as every action reads it. */
export interface YourlsCall {
  readonly deps: AppDeps;
  readonly principal: Principal;
  readonly params: YourlsParams;
  /**
   * The host of the short domain the call came to (its `Host`; HOP_PUBLIC_URL's for the
   * default domain): a YOURLS install is one domain, so each of hop's domains answers as
   * one (ADR 0135).
   */
  readonly host: string;
  /** The client's address, rate limited on creates as /v1 does. */
  readonly client: string | undefined;
}
