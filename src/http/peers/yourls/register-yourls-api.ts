import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';

/** YOURLS at `/yourls-api.php` (issue 24): a thin translation over hop's services, in its own Fastify scope. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- filled in by the adapter (issue 24)
export async function registerYourlsApi(_app: FastifyInstance, _deps: AppDeps): Promise<void> {
  // Filled in by the adapter's routes (issue 24).
}
