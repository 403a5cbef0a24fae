import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JetStreamClicks } from '../adapters/nats/jetstream-clicks.js';
import { SqliteClickDatabase } from '../adapters/sqlite/sqlite-click-database.js';
import type { ClickStore } from '../ports/click-store.js';
import { describeStore, openStore } from './open-store.js';
import type { ClickAggregator } from '../clicks/click-aggregator.js';
import type { Config } from '../config/config.js';
import { bearerTokenCheck, METRICS_TOKEN_REQUIRED } from '../http/bearer-token.js';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../http/problems.js';
import { ConfigError } from '../config/load-config.js';
import type { Logger } from '../observability/logger.js';
import { createWorkerMetrics, type ClickCounters } from '../observability/metrics.js';
import { METRIC_TABLE, type MetricSources } from './metric-table.js';
import { systemClock } from '../ports/clock.js';
import { makeAggregator } from './click-pipeline.js';
import { cannotListen } from './listen-error.js';

const NOT_FOUND_BODY = JSON.stringify(
  problemBody('not-found', 'hop worker answers /metrics and /healthz only.', undefined),
);
const UNAUTHORIZED_BODY = JSON.stringify(
  problemBody('unauthorized', METRICS_TOKEN_REQUIRED, undefined),
);

/** How often a running worker logs what it has folded. */
const PROGRESS_LOG_INTERVAL_MS = 60_000;

export interface RunningWorker {
  /** Where /metrics and /healthz answer, e.g. http://127.0.0.1:8081. */
  readonly address: string;
  /** Finishes the fold in progress (and acknowledges it), then closes. */
  stop(): Promise<void>;
}

/**
 * `hop worker`: folds click events from JetStream into the store's hourly aggregates
 * (SPEC §6, §9). Several may run: they share one durable consumer, so each event goes to
 * one of them, and a redelivered one is skipped by its event id.
 */
export async function startWorker(config: Config, logger: Logger): Promise<RunningWorker> {
  if (config.natsServers === undefined) {
    throw new ConfigError([
      'HOP_NATS_URL is unset: `hop worker` folds clicks from NATS JetStream (without NATS, `hop serve` folds its own).',
    ]);
  }
  const store = await openClickStore(config, logger);
  const source = new JetStreamClicks({
    servers: config.natsServers,
    stream: config.natsStream,
    ackWaitMs: config.natsAckWaitMs,
    onStatus: (status) => {
      logger.info({ stream: config.natsStream }, status);
    },
  });
  const aggregator = makeAggregator(source, store.clicks, systemClock, config, logger);
  let server: Server;
  try {
    server = await listenForScrapes(config, aggregator);
  } catch (error) {
    await source.close();
    await store.close();
    throw cannotListen(config.host, 'HOP_WORKER_PORT', config.workerPort, error);
  }
  const { port } = server.address() as AddressInfo;
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  aggregator.start();
  logger.info(
    {
      stream: config.natsStream,
      data: config.database === undefined ? config.clicksDatabaseFile : describeStore(config),
      address,
    },
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
    address,
    stop: () => {
      stopping ??= (async () => {
        clearInterval(progress);
        await new Promise((resolve) => server.close(resolve));
        await aggregator.stop();
        await source.close();
        await store.close();
      })();
      return stopping;
    },
  };
}

/** The aggregates a worker folds into: PostgreSQL's when configured, else clicks.db. */
async function openClickStore(
  config: Config,
  logger: Logger,
): Promise<{ readonly clicks: ClickStore; close(): Promise<void> | void }> {
  if (config.database === undefined) return SqliteClickDatabase.open(config.clicksDatabaseFile);
  const opened = await openStore(config, logger, false);
  return {
    clicks: opened.store.clicks,
    close: () => opened.store.close(),
  };
}

/** /metrics for Prometheus, /healthz for the orchestrator; nothing else. */
function listenForScrapes(config: Config, aggregator: ClickAggregator): Promise<Server> {
  const counters = (): ClickCounters => ({
    bufferDepth: null,
    dropped: 0,
    flushed: 0,
    flushFailures: 0,
    folded: aggregator.folded,
    duplicates: aggregator.duplicates,
    lagSeconds: aggregator.lagSeconds,
    spooledFolds: 0,
  });
  // The process's own and the aggregator's; the buffer side shows as zeros (none here).
  const metrics = createWorkerMetrics<MetricSources>(METRIC_TABLE, {
    clicks: counters,
    aggregator: counters,
  });
  const isMetricsAllowed = bearerTokenCheck(config.metricsToken);
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/metrics') {
      if (!isMetricsAllowed(request.headers.authorization)) {
        response
          .writeHead(401, {
            'content-type': PROBLEM_CONTENT_TYPE,
            'www-authenticate': 'Bearer realm="hop"',
          })
          .end(UNAUTHORIZED_BODY);
        return;
      }
      void metrics.render().then(({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType }).end(body);
      });
    } else if (request.method === 'GET' && request.url === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      response.writeHead(404, { 'content-type': PROBLEM_CONTENT_TYPE }).end(NOT_FOUND_BODY);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.workerPort, config.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
