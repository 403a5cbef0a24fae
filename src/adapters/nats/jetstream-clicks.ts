import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type Consumer,
  type JetStreamClient,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { eventOf, type ClickBatch } from '../../domain/click-batch.js';
import { tallyOfEvent, type ClickTally } from '../../domain/click-tally.js';
import { decodeEvent, encodeEvent } from '../../wire/click-event-codec.js';
import { eventIdOf } from '../../domain/click-event.js';
import type { ClickSink } from '../../ports/click-sink.js';
import type { ClickDelivery, ClickSource } from '../../ports/click-source.js';

/** Unfolded events are kept this long, then JetStream discards them (no worker ran). */
const STREAM_MAX_AGE_MS = 7 * 24 * 3_600_000;
/**
 * JetStream drops a message whose id it has seen this recently: a publisher retry after a
 * lost PubAck is stored once. Longer than NATS's 2-minute default, to cover a retry made
 * after a short outage; older duplicates are still caught by the fold (by event id).
 */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** An unacknowledged delivery goes to another worker after this long. */
const ACK_WAIT_MS = 30_000;
/** Longest a publish waits for JetStream's acknowledgement before the batch is retried. */
const PUBLISH_TIMEOUT_MS = 2_000;
/** Longest a fetch waits for events before the aggregator hears "none". */
const FETCH_WAIT_MS = 1_000;
/** The durable consumer every `hop worker` shares: each event goes to one of them. */
const AGGREGATOR_CONSUMER = 'hop-aggregator';

export interface JetStreamClickOptions {
  readonly servers: readonly string[];
  readonly stream: string;
  /** How long a delivery may stay unacknowledged before it is redelivered (default 30 s). */
  readonly ackWaitMs?: number;
  /** Connection state changes worth a log line. */
  readonly onStatus: (status: string) => void;
}

/**
 * One NATS connection carrying click events (SPEC §6): publishes them to a JetStream
 * stream, one message per event with the event id as message id, and consumes them for
 * `hop worker`. It connects in the background and reconnects for ever, so NATS being down
 * at start or later never stops hop: sends fail, the flusher keeps the events.
 */
export class JetStreamClicks implements ClickSink, ClickSource {
  readonly #options: JetStreamClickOptions;
  readonly #subject: string;
  #connection: Promise<NatsConnection> | null = null;
  #client: JetStreamClient | null = null;
  #streamReady: Promise<void> | null = null;
  #consumer: Promise<Consumer> | null = null;
  #closed = false;

  constructor(options: JetStreamClickOptions) {
    this.#options = options;
    this.#subject = `${options.stream}.clicks`;
  }

  /** Connects on first use: a CLI command that never sends a click never dials NATS. */
  #connect(): Promise<NatsConnection> {
    if (this.#connection !== null) return this.#connection;
    const connection = connect({
      servers: [...this.#options.servers],
      name: 'hop-clicks',
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    connection.then(
      (nc) => void this.#watch(nc),
      (error: unknown) => {
        this.#options.onStatus(`NATS connection failed: ${String(error)}`);
      },
    );
    this.#connection = connection;
    return connection;
  }

  async send(batch: ClickBatch): Promise<void> {
    if (batch.size === 0) return;
    const client = await this.#ready();
    // Every publish in flight at once; any failure fails the batch, which the flusher
    // sends again whole: the ones already stored are dropped by their message id.
    const publishes: Promise<unknown>[] = [];
    for (let index = 0; index < batch.size; index++) {
      const event = eventOf(batch, index);
      publishes.push(
        client.publish(this.#subject, encodeEvent(event), {
          msgID: eventIdOf(event),
          timeout: PUBLISH_TIMEOUT_MS,
        }),
      );
    }
    const results = await Promise.allSettled(publishes);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  async next(maxClicks: number): Promise<ClickDelivery | null> {
    await this.#ready();
    const consumer = await this.#aggregatorConsumer();
    const messages = await consumer.fetch({ max_messages: maxClicks, expires: FETCH_WAIT_MS });
    const delivered: JsMsg[] = [];
    const tallies: ClickTally[] = [];
    for await (const message of messages) {
      const event = decodeEvent(message.string());
      if (event === null) {
        // Not ours, or corrupt: never redelivered, never counted.
        message.term();
        continue;
      }
      delivered.push(message);
      tallies.push(tallyOfEvent(event));
    }
    if (delivered.length === 0) return null;
    return {
      tallies,
      ack: async () => {
        for (const message of delivered) message.ack();
        // The acks are on the wire before the next fetch (a lost one only redelivers).
        await (await this.#connect()).flush();
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const connection = this.#connection;
    if (connection === null) return;
    const nc = await Promise.race([
      connection.catch(() => null),
      new Promise<null>((resolve) =>
        setTimeout(() => {
          resolve(null);
        }, 100).unref(),
      ),
    ]);
    if (nc === null) {
      // Never connected: stop the attempts once it does, or now if it fails.
      connection.then(
        async (late) => {
          await late.close();
        },
        () => undefined,
      );
      return;
    }
    await nc.drain().catch(async () => {
      await nc.close();
    });
  }

  async #ready(): Promise<JetStreamClient> {
    if (this.#closed) throw new Error('the click stream is closed');
    const nc = await Promise.race([
      this.#connect(),
      new Promise<never>((_, reject) =>
        setTimeout(() => {
          reject(new Error('NATS is not connected'));
        }, PUBLISH_TIMEOUT_MS).unref(),
      ),
    ]);
    if (nc.isClosed()) throw new Error('NATS connection closed');
    this.#streamReady ??= this.#ensureStream(nc).catch((error: unknown) => {
      this.#streamReady = null;
      throw error;
    });
    await this.#streamReady;
    this.#client ??= jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS });
    return this.#client;
  }

  async #ensureStream(nc: NatsConnection): Promise<void> {
    const manager = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
    const config = {
      name: this.#options.stream,
      subjects: [this.#subject],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      max_age: nanos(STREAM_MAX_AGE_MS),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    };
    try {
      await manager.streams.info(this.#options.stream);
    } catch {
      await manager.streams.add(config).catch(async (error: unknown) => {
        // Another instance created it meanwhile.
        await manager.streams.info(this.#options.stream).catch(() => {
          throw error;
        });
      });
    }
  }

  #aggregatorConsumer(): Promise<Consumer> {
    this.#consumer ??= (async () => {
      const nc = await this.#connect();
      const manager = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
      try {
        await manager.consumers.info(this.#options.stream, AGGREGATOR_CONSUMER);
      } catch {
        await manager.consumers.add(this.#options.stream, {
          durable_name: AGGREGATOR_CONSUMER,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: nanos(this.#options.ackWaitMs ?? ACK_WAIT_MS),
        });
      }
      return jetstream(nc).consumers.get(this.#options.stream, AGGREGATOR_CONSUMER);
    })().catch((error: unknown) => {
      this.#consumer = null;
      throw error;
    });
    return this.#consumer;
  }

  async #watch(nc: NatsConnection): Promise<void> {
    this.#options.onStatus('NATS connected');
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        this.#options.onStatus(`NATS ${status.type}`);
      }
    }
  }
}
