import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { randomFillSync } from 'node:crypto';
import type { DeliveryBounds, SqliteClickQueue } from '../adapters/sqlite/sqlite-click-queue.js';
import { ClickAggregator } from '../clicks/click-aggregator.js';
import { ClickBuffer } from '../clicks/click-buffer.js';
import { ClickFlusher, largestPeekFor } from '../clicks/click-flusher.js';
import { ClickDimensions } from '../clicks/click-dimensions.js';
import { StoreFoldingClickSink } from '../clicks/store-folding-click-sink.js';
import { ALPHABETS } from '../codes/alphabets.js';
import { RandomCodeGenerator } from '../codes/random-code-generator.js';
import type { Config } from '../config/config.js';
import type { ClickRecorder } from '../http/app-deps.js';
import type { Logger } from '../observability/logger.js';
import type { ClickCounters } from '../observability/metrics.js';
import type { ClickSource } from '../ports/click-source.js';
import type { ClickSink } from '../ports/click-sink.js';
import type { ClickStore } from '../ports/click-store.js';
import { startAggregatorThread, type AggregatorThread } from './aggregator-thread.js';
import type { GeoLookup } from '../ports/geo-lookup.js';
import type { Clock } from '../ports/clock.js';
import { wallTimeAt } from './wall-time-at.js';
import { ClickEventDemand } from '../services/events/click-event-demand.js';
import { EVENTS_KEEP_MS } from '../services/webhooks/forget-old-events.js';

/** The in-process aggregator's pause when it finds nothing to fold. */
const AGGREGATOR_IDLE_MS = 250;
/**
 * The aggregator thread of `hop serve` folds what gathered every 15 s (analytics lag
 * behind by about that), merging up to two minutes of flushed batches per fold: a fold
 * costs one row update per link, hour and dimensions clicked since the last one (about
 * 7.5 µs each here), so a link clicked every second costs a fifteenth of what folding
 * every second would. It was 10 s until issue 21 added a third row per link and hour (its
 * browser and os, ADR 0109): the thread shares the process's CPU, and the paired `hot`
 * bench put the extra row at about 4% of a plain redirect's throughput; folding every
 * 15 s keeps the thread's rows per second where they were (BENCHMARKS.md, 2026-12-05).
 */
const THREAD_FOLD_INTERVAL_MS = 15_000;
/**
 * How much of the queue one fold of the thread takes: 120 flushes at most, and no further
 * one once those taken name 20,000 links. A fold holds every link it names in memory until
 * it commits: one fold of 15 s of clicks spread over a million links raised `hop serve`'s
 * memory by 700 MB, to a 1,148 MB peak. Clicks on a few links still merge 15 s at a time
 * (ADR 0145).
 */
const THREAD_FOLD_BOUNDS: DeliveryBounds = { rows: 120, links: 20_000 };
const THREAD_REPORT_INTERVAL_MS = 1_000;
/** 16 base62 characters ≈ 95 bits: no two process starts share an instance id. */
const INSTANCE_ID_LENGTH = 16;

/** The click pipeline of one `hop serve` (SPEC §6). */
export interface ClickPipeline {
  readonly record: ClickRecorder;
  readonly buffer: ClickBuffer;
  readonly flusher: ClickFlusher;
  /**
   * The in-process aggregator, embedded and not serving (CLI, tests: they drain it).
   * `hop serve` folds in a thread of its own; scaled out, `hop worker` folds.
   */
  readonly aggregator: ClickAggregator | null;
  /**
   * Embedded, whether folds write click events (ADR 0131): event streams and webhooks
   * touch it. Null scaled out, where folds always write them.
   */
  readonly clickEvents: ClickEventDemand | null;
  /**
   * `hop serve`, embedded: a port on which the aggregator thread writes the spooled folds'
   * log rows it is sent (ADR 0132); for the integrations thread. Null otherwise.
   */
  spoolWrites(): MessagePort | null;
  counters(): ClickCounters;
  start(): void;
  /** Flushes the buffer (SIGTERM), stops the aggregator after its fold, closes the sink. */
  stop(): Promise<void>;
}

/**
 * This process's id in every event id it makes; in one of several regions it starts with the
 * region's name, so every click event says where it was made (issue 25). Folds count an
 * event once by this id however many regions' workers see it.
 */
function newInstanceId(region: string | undefined): string {
  const random = new RandomCodeGenerator({
    alphabet: ALPHABETS.base62,
    length: INSTANCE_ID_LENGTH,
    randomBytes: (buffer) => {
      randomFillSync(buffer);
    },
  }).generateSync();
  return region === undefined ? random : `${region}-${random}`;
}

/** Where clicks end up: the store's aggregates, and SQLite's queue when embedded. */
export interface ClickStores {
  readonly clicks: ClickStore;
  /** clicks.db's queue on the embedded store; null on PostgreSQL. */
  readonly embeddedQueue: SqliteClickQueue | null;
}

/**
 * Embedded (SQLite, no HOP_NATS_URL): the sink is the `click_queue` table of clicks.db,
 * folded in this process: by a thread of its own when serving (which also writes the
 * queue, so the event loop never waits on clicks.db), in process otherwise (CLI, tests).
 * With NATS: the sink is JetStream and `hop worker` folds. On PostgreSQL without NATS,
 * each flush is folded straight into the shared aggregates. The NATS adapter loads only
 * when configured.
 */
export async function composeClickPipeline(
  config: Config,
  stores: ClickStores,
  clock: Clock,
  logger: Logger,
  serving: boolean,
  geo: GeoLookup | null,
): Promise<ClickPipeline> {
  const instance = newInstanceId(config.region);
  const queue = config.natsServers === undefined ? stores.embeddedQueue : null;
  const embedded = queue !== null;
  // Embedded, and folding straight into PostgreSQL, a flush is one send: its clicks summed
  // once, so a bucket clicked throughout the second is encoded and folded once, not once
  // per HOP_CLICK_BATCH clicks (each fold a transaction under the fold lock). JetStream
  // carries events: HOP_CLICK_BATCH per send.
  const clicksPerSend =
    config.natsServers === undefined ? config.clickBufferSize : config.clickBatchSize;
  // Without an edge's country header (geo is then null), clicks are placed by their
  // address, looked up at each flush (issue 21, ADR 0109).
  const thread = embedded && serving ? startEmbeddedAggregatorThread(config, logger) : null;
  // The thread keeps the horizon itself; the in-process aggregator asks the demand.
  const clickEvents = embedded
    ? new ClickEventDemand({
        clock,
        keepMs: EVENTS_KEEP_MS,
        onRaise: (untilMs) => thread?.wantClickEventsUntil(untilMs),
      })
    : null;
  const aggregator =
    queue !== null && !serving
      ? makeAggregator(queue, stores.clicks, clock, config, logger, clickEvents)
      : null;
  const direct =
    config.natsServers === undefined && queue === null
      ? new StoreFoldingClickSink(stores.clicks, config.clickMaxReferrers, clock, config.visitLog)
      : null;
  const sink: ClickSink =
    config.natsServers !== undefined
      ? new (await import('../adapters/nats/jetstream-clicks.js')).JetStreamClicks({
          servers: config.natsServers,
          stream: config.natsStream,
          onStatus: (status) => {
            logger.info({ stream: config.natsStream }, status);
          },
        })
      : (direct ?? thread?.sink ?? (queue as SqliteClickQueue));
  const buffer = new ClickBuffer(
    config.clickBufferSize,
    new ClickDimensions(geo),
    largestPeekFor(sink, clicksPerSend),
  );
  const flusher = new ClickFlusher({
    buffer,
    sink,
    instance,
    intervalMs: config.clickFlushIntervalMs,
    batchSize: clicksPerSend,
    onFailure: (error) => {
      logger.warn(
        { err: error, buffered: buffer.size, capacity: buffer.capacity },
        'click sink failed; clicks stay buffered and are dropped (and counted) once the buffer is full',
      );
    },
    onRecovery: () => {
      logger.info('click sink back; flushing resumed');
    },
    onDropping: (droppedSoFar) => {
      logger.warn(
        { capacity: buffer.capacity, dropped_total: droppedSoFar },
        'click buffer full: clicks are being dropped (and counted)',
      );
    },
  });
  const folding = thread ?? aggregator ?? direct;
  const clickTimeAt = wallTimeAt(clock);
  return {
    buffer,
    flusher,
    aggregator,
    clickEvents,
    spoolWrites: () => {
      if (thread === null) return null;
      const channel = new MessageChannel();
      thread.acceptSpoolWrites(channel.port1);
      return channel.port2;
    },
    record: (startedAt, linkId, code, userAgent, referer, country, address, acceptLanguage) => {
      buffer.push(
        linkId,
        code,
        clickTimeAt(startedAt),
        userAgent,
        referer,
        country,
        address,
        acceptLanguage,
      );
    },
    counters: () => ({
      bufferDepth: buffer.size,
      dropped: buffer.dropped,
      flushed: flusher.flushed,
      flushFailures: flusher.failures,
      folded: folding === null ? null : folding.folded,
      duplicates: folding?.duplicates ?? 0,
      lagSeconds: folding?.lagSeconds ?? 0,
      spooledFolds: thread?.spooledFolds ?? 0,
    }),
    start: () => {
      flusher.start();
      aggregator?.start();
    },
    stop: async () => {
      // The thread must still be there to queue what the last flush sends.
      const emptied = await flusher.stop();
      if (!emptied) {
        logger.warn(
          { lost: buffer.size },
          'click sink unavailable at shutdown; buffered clicks lost',
        );
      }
      await aggregator?.stop();
      await thread?.stop();
      await sink.close();
    },
  };
}

function startEmbeddedAggregatorThread(config: Config, logger: Logger): AggregatorThread {
  return startAggregatorThread(
    {
      clicksFile: config.clicksDatabaseFile,
      maxReferrers: config.clickMaxReferrers,
      logVisits: config.visitLog,
      foldBounds: THREAD_FOLD_BOUNDS,
      foldIntervalMs: THREAD_FOLD_INTERVAL_MS,
      reportIntervalMs: THREAD_REPORT_INTERVAL_MS,
    },
    (reason) => {
      logger.warn({ reason }, 'click aggregation failed; retrying');
    },
  );
}

/** The aggregator folding from `source` into `store` (in `hop serve` or `hop worker`). */
export function makeAggregator(
  source: ClickSource,
  store: ClickStore,
  clock: Clock,
  config: Config,
  logger: Logger,
  clickEvents: ClickEventDemand | null = null,
): ClickAggregator {
  return new ClickAggregator({
    ...(clickEvents === null ? {} : { clickEventsWanted: (nowMs) => clickEvents.wanted(nowMs) }),
    source,
    store,
    clock,
    batchSize: config.clickBatchSize,
    maxReferrers: config.clickMaxReferrers,
    logVisits: config.visitLog,
    idleMs: AGGREGATOR_IDLE_MS,
    onFailure: (error) => {
      logger.warn({ err: error }, 'click aggregation failed; retrying');
    },
  });
}
