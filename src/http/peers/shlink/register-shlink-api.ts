import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';

/** Shlink REST v3 (and its v2, v1 aliases) under `/rest` (issue 24): a thin translation over hop's services, in its own Fastify scope. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- filled in by the adapter (issue 24)
export async function registerShlinkApi(_app: FastifyInstance, _deps: AppDeps): Promise<void> {
  // Filled in by the adapter's routes (issue 24).
}
