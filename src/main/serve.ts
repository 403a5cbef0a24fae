import type { Config } from '../config/config.js';
import { buildApp } from '../http/build-app.js';
import type { Logger } from '../observability/logger.js';
import { ensureBootstrapKey } from '../services/keys/manage-keys.js';
import { composeRuntime } from './compose.js';
import { describeStore } from './open-store.js';
import { keepTickObjectShape } from './keep-tick-object-shape.js';
import { cannotListen } from './listen-error.js';
import { startServingJobs } from './start-serving-jobs.js';

export interface RunningServer {
  /** The address actually bound, e.g. http://127.0.0.1:8080. */
  readonly address: string;
  /** Stops taking connections, finishes in-flight requests, closes the store. */
  stop(): Promise<void>;
}

/** `hop serve`: compose, make sure an admin can get in, listen. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  keepTickObjectShape();
  const runtime = await composeRuntime(config, logger, { serving: true });
  const app = await buildApp(runtime.appDeps);
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await runtime.close();
    throw cannotListen(config.host, 'HOP_PORT', config.port, error);
  }
  // After listening, so that a start that fails never prints a key nobody can use.
  const bootstrap = await ensureBootstrapKey(runtime.keyService, config.bootstrapAdminKey);
  if (bootstrap.kind === 'generated') {
    // Printed once, straight to the terminal, never through the logger.
    process.stdout.write(
      `\nhop: no API keys existed, so an admin key was created. It is shown only this once:\n\n    ${bootstrap.key}\n\n`,
    );
  }
  logger.info(
    { address, publicUrl: config.publicUrl, data: describeStore(config) },
    'hop listening',
  );
  if (config.webhookAllowPrivate) {
    logger.warn(
      'HOP_WEBHOOK_ALLOW_PRIVATE is on: webhooks may be delivered to private, loopback and link-local addresses',
    );
  }
  startServingJobs(runtime, logger);
  runtime.clicks?.start();
  let stopping: Promise<void> | null = null;
  return {
    address,
    stop: () => {
      stopping ??= (async () => {
        // A sweep in progress ends at its batch boundary; polls stop where they are.
        await runtime.jobs.stop();
        // In-flight requests finish (and record their clicks) before the buffer is flushed.
        await app.close();
        await runtime.close();
      })();
      return stopping;
    },
  };
}
