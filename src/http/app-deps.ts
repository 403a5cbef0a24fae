import type { FastifyBaseLogger } from 'fastify';
import type { KeyServiceDeps } from '../services/keys/key-service-deps.js';
import type { LinkServiceDeps } from '../services/links/link-service-deps.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';

/** Metrics as the HTTP layer sees them: record a redirect, render for a scrape. */
export interface HttpMetrics {
  observeRedirect(outcome: string, startedAt: number): void;
  render(): Promise<{ contentType: string; body: string }>;
}

/** Everything buildApp needs, built once by the composition root (src/main). */
export interface AppDeps {
  readonly linkService: LinkServiceDeps;
  readonly keyService: KeyServiceDeps;
  readonly redirect: RedirectResolver;
  /** Resolves when the store answers (readiness). */
  readonly pingStore: () => Promise<void>;
  readonly publicUrl: string;
  readonly logger: FastifyBaseLogger;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimitBytes: number;
  readonly metrics: HttpMetrics;
}
