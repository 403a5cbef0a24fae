import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RegionChannel, RegionLinkChange } from '../../ports/region-channel.js';

export interface NatsRegionChannelOptions {
  /** This region's NATS servers, one cluster of a supercluster joined by gateways. */
  readonly servers: readonly string[];
  /** The subject every region of one deployment shares. */
  readonly subject: string;
  readonly region: string;
  /** Connection state changes worth a log line. */
  readonly onStatus: (status: string) => void;
}

/**
 * Link changes between regions on core NATS (ADR 0141). Each region's NATS cluster joins
 * the others by gateways (NATS's own configuration, no relay of ours), so a message
 * published in one region reaches the subscribers of every other. Every instance subscribes
 * in a queue group named for its region: of each message, one instance per region hears it
 * and hands it to its region's Redis, whose channel tells the region's other instances.
 * A message is `<region> <kind> <version> <key>`: keys hold no spaces.
 */
export class NatsRegionChannel implements RegionChannel {
  readonly #options: NatsRegionChannelOptions;
  readonly #listeners: ((change: RegionLinkChange) => void)[] = [];
  readonly #connection: Promise<NatsConnection>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #closed = false;

  constructor(options: NatsRegionChannelOptions) {
    this.#options = options;
    this.#connection = connect({
      servers: [...options.servers],
      name: `hop-${options.region}`,
      // For ever: a region cut off from its NATS server gets its channel back on return.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // While NATS is away, what is published waits in the client until it is back.
      waitOnFirstConnect: true,
    });
    void this.#connection.then(
      (connection) => {
        this.#subscribe(connection);
        void this.#watch(connection);
      },
      (error: unknown) => {
        options.onStatus(`NATS region channel failed to connect: ${String(error)}`);
      },
    );
  }

  publish(change: RegionLinkChange): void {
    const text = `${change.region} ${change.kind} ${change.version} ${change.key}`;
    void this.#connection.then(
      (connection) => {
        if (!connection.isClosed())
          connection.publish(this.#options.subject, this.#encoder.encode(text));
      },
      () => undefined,
    );
  }

  onChange(listener: (change: RegionLinkChange) => void): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const connection = await this.#connection.catch(() => null);
    // Drained: what this instance published is sent before it goes.
    await connection?.drain().catch(() => undefined);
  }

  #subscribe(connection: NatsConnection): void {
    connection.subscribe(this.#options.subject, {
      queue: `hop-${this.#options.region}`,
      callback: (error, message) => {
        if (error !== null) return;
        const change = this.#decode(this.#decoder.decode(message.data));
        // This region's own changes reached its Redis from the instance that made them.
        if (change === null || change.region === this.#options.region) return;
        for (const listener of this.#listeners) listener(change);
      },
    });
  }

  #decode(text: string): RegionLinkChange | null {
    const [region, kind, version, key] = text.split(' ');
    if (region === undefined || key === undefined || (kind !== 'changed' && kind !== 'created')) {
      return null;
    }
    const parsed = Number(version);
    if (!Number.isSafeInteger(parsed) || parsed < 0) return null;
    return { region, kind, version: parsed, key };
  }

  async #watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        this.#options.onStatus(`NATS region channel: ${status.type}`);
      }
    }
  }
}
