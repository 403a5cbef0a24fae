import { connect, type Socket } from 'node:net';
import { HttpResponseParser } from './http-response-parser.js';

/**
 * What a connection tells the open-loop driver about request number `request` (its place
 * in the schedule); times are performance.now() ms.
 */
export interface ConnectionEvents {
  sent(request: number, sentAt: number): void;
  answered(request: number, status: number, answeredAt: number): void;
  /** The request in flight was lost with its connection. */
  failed(request: number): void;
}

interface QueuedRequest {
  readonly request: number;
  readonly bytes: Buffer;
}

/** Pause before reconnecting, so a server that is down is not hammered in a tight loop. */
const RECONNECT_DELAY_MS = 10;
/** Room for one read; answers here are a few hundred bytes. */
const READ_BUFFER_BYTES = 16 * 1024;

/**
 * One keep-alive HTTP/1.1 connection with at most one request in flight (no pipelining):
 * a request whose time has come while the previous one is unanswered waits here, and its
 * latency still counts from its intended time.
 */
export class KeepAliveConnection {
  private socket: Socket;
  private connected = false;
  private closing = false;
  private inFlight: QueuedRequest | null = null;
  private readonly queue: QueuedRequest[] = [];
  private readonly parser = new HttpResponseParser();
  /**
   * Reads land in this one buffer, reused (net's `onread`), instead of a fresh buffer per
   * read: at 10,000 answers a second those allocations cost scavenges that show up as
   * latency here.
   */
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly onResponse = (status: number) => {
    const answered = this.inFlight;
    if (answered === null) throw new Error('a response arrived with no request in flight');
    this.inFlight = null;
    this.events.answered(answered.request, status, performance.now());
    this.sendNext();
  };

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly events: ConnectionEvents,
  ) {
    this.socket = this.open();
  }

  /** Resolves once the first connection is up. */
  ready(): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => {
        resolve();
      });
      this.socket.once('error', reject);
    });
  }

  /** Requests not yet answered: the one in flight and those waiting behind it. */
  get outstanding(): number {
    return this.queue.length + (this.inFlight === null ? 0 : 1);
  }

  send(request: number, bytes: Buffer): void {
    this.queue.push({ request, bytes });
    if (this.inFlight === null && this.connected) this.sendNext();
  }

  /** Ends the connection; whatever is still outstanding is the caller's to count. */
  close(): void {
    this.closing = true;
    this.socket.destroy();
  }

  private open(): Socket {
    const socket = connect({
      host: this.host,
      port: this.port,
      noDelay: true,
      onread: {
        buffer: this.readBuffer,
        callback: (bytes) => {
          this.parser.push(this.readBuffer.subarray(0, bytes), this.onResponse);
          return true; // keep reading
        },
      },
    });
    socket.on('connect', () => {
      this.connected = true;
      this.sendNext();
    });
    // 'close' follows every 'error'; the error itself needs no handling beyond that.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.onClose();
    });
    return socket;
  }

  private sendNext(): void {
    const next = this.queue.shift();
    if (next === undefined) return;
    this.inFlight = next;
    this.events.sent(next.request, performance.now());
    this.socket.write(next.bytes);
  }

  private onClose(): void {
    this.connected = false;
    this.parser.reset();
    if (this.closing) return;
    if (this.inFlight !== null) this.events.failed(this.inFlight.request);
    this.inFlight = null;
    setTimeout(() => {
      this.socket = this.open();
    }, RECONNECT_DELAY_MS);
  }
}
