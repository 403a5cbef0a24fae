import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';

/**
 * SIGTERM and SIGINT: stop (a server finishes in-flight requests, flushes its clicks and
 * closes the store; a worker finishes its fold), exit 0;
 * if that takes longer than the shutdown timeout, exit 1 anyway.
 */
export function stopOnSignals(
  server: { stop(): Promise<void> },
  config: Config,
  logger: Logger,
): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown timed out; exiting with requests in flight');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    server.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
