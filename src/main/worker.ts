import { JetStreamClicks } from '../adapters/nats/jetstream-clicks.js';
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';
import type { Logger } from '../observability/logger.js';
import { systemClock } from '../ports/clock.js';
import { makeAggregator } from './click-pipeline.js';

/** How often a running worker logs what it has folded. */
const PROGRESS_LOG_INTERVAL_MS = 60_000;

export interface RunningWorker {
  /** Finishes the fold in progress (and acknowledges it), then closes. */
  stop(): Promise<void>;
}

/**
 * `hop worker`: folds click events from JetStream into the store's hourly aggregates
 * (SPEC §6, §9). Several may run: they share one durable consumer, so each event goes to
 * one of them, and a redelivered one is skipped by its event id.
 */
export function startWorker(config: Config, logger: Logger): RunningWorker {
  if (config.natsServers === undefined) {
    throw new ConfigError([
      'HOP_NATS_URL is unset: `hop worker` folds clicks from NATS JetStream (without NATS, `hop serve` folds its own).',
    ]);
  }
  const store = SqliteStore.open({ file: config.databaseFile });
  const source = new JetStreamClicks({
    servers: config.natsServers,
    stream: config.natsStream,
    ackWaitMs: config.natsAckWaitMs,
    onStatus: (status) => {
      logger.info({ stream: config.natsStream }, status);
    },
  });
  const aggregator = makeAggregator(source, store.clicks, systemClock, config, logger);
  aggregator.start();
  logger.info(
    { stream: config.natsStream, data: config.databaseFile },
    'hop worker folding clicks',
  );
  const progress = setInterval(() => {
    logger.info(
      {
        folded: aggregator.folded,
        duplicates: aggregator.duplicates,
        lag_seconds: aggregator.lagSeconds,
      },
      'clicks folded',
    );
  }, PROGRESS_LOG_INTERVAL_MS);
  progress.unref();
  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= (async () => {
        clearInterval(progress);
        await aggregator.stop();
        await source.close();
        await store.close();
      })();
      return stopping;
    },
  };
}
