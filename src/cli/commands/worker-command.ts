import type { Command } from 'commander';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';

export function addWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('fold click events from NATS JetStream into the analytics (needs HOP_NATS_URL)')
    .action(async () => {
      const config = loadCliConfig();
      const logger = createLogger(config.logLevel);
      const [{ startWorker }, { stopOnSignals }] = await Promise.all([
        import('../../main/worker.js'),
        import('../../main/stop-on-signals.js'),
      ]);
      const worker = await startWorker(config, logger).catch(exitOnConfigError);
      stopOnSignals(worker, config, logger);
    });
}
