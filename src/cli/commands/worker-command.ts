import type { Command } from 'commander';
import { stopOnSignals } from '../../main/serve.js';
import { startWorker } from '../../main/worker.js';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';

export function addWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('fold click events from NATS JetStream into the analytics (needs HOP_NATS_URL)')
    .action(() => {
      const config = loadCliConfig();
      const logger = createLogger(config.logLevel);
      let worker;
      try {
        worker = startWorker(config, logger);
      } catch (error) {
        exitOnConfigError(error);
      }
      stopOnSignals(worker, config, logger);
    });
}
