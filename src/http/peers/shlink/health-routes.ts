import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { versioned } from './shlink-paths.js';

/**
 * The Shlink version hop answers as. Shlink's clients enable features by it (the web
 * component's gates go up to 5.0.0) and take an unparsable one as 1.0.0: a 5.x release
 * whose API this adapter follows (ADR 0133).
 */
export const SHLINK_VERSION = '5.1.5';

const LINKS = { about: 'https://shlink.io', project: 'https://github.com/shlinkio/shlink' };

/** Shlink's health, with no key: `/rest/health` and each version's `/health`. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of ['/rest/health', ...versioned('/health')]) {
    app.get(path, async (_request, reply) => {
      let pass = true;
      try {
        await deps.pingStore();
      } catch {
        pass = false;
      }
      return reply
        .code(pass ? 200 : 503)
        .header('content-type', 'application/health+json')
        .header('cache-control', 'no-store')
        .send(
          JSON.stringify({ status: pass ? 'pass' : 'fail', version: SHLINK_VERSION, links: LINKS }),
        );
    });
  }
}
