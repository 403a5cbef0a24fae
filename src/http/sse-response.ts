import type { ServerResponse } from 'node:http';

export interface SseResponseOptions {
  /** Bytes written but not yet taken by the client past which it is dropped. */
  readonly maxUnsentBytes: number;
  /** How often a comment line goes out while nothing else does. */
  readonly heartbeatMs: number;
}

/**
 * A Server-Sent Events response over a raw Node response (WHATWG HTML §9.2): frames are
 * written as they come; what the client has not taken yet waits in Node's buffer, and a
 * client that lets it pass `maxUnsentBytes` is reported so that the caller drops it.
 */
export class SseResponse {
  readonly #raw: ServerResponse;
  readonly #options: SseResponseOptions;
  #heartbeat: NodeJS.Timeout | null = null;
  #opened = false;
  #ended = false;

  constructor(raw: ServerResponse, options: SseResponseOptions) {
    this.#raw = raw;
    this.#options = options;
  }

  /** True once the client is gone or the stream was ended. */
  get ended(): boolean {
    return this.#ended || this.#raw.destroyed;
  }

  /** Writes the status and headers and a first comment, so that clients see it open at once. */
  open(headers: Record<string, string | number | readonly string[]>): void {
    if (this.#opened || this.ended) return;
    this.#opened = true;
    this.#raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // Never stored, and never held back by a proxy that buffers (nginx reads this one).
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // A stream ends only when one side ends it: the connection goes with it, so that a
      // server that is closing never waits on it as an idle keep-alive.
      connection: 'close',
    });
    this.#raw.write(': hop events\n\n');
    this.#heartbeat = setInterval(() => {
      if (!this.ended) this.#raw.write(': heartbeat\n\n');
    }, this.#options.heartbeatMs);
    this.#raw.once('close', () => {
      this.#stop();
    });
  }

  /** Writes one frame; false when the client has let too much wait (the hub waits for `ready`). */
  send(frame: string): boolean {
    if (this.ended) return true;
    this.#raw.write(frame);
    return this.#raw.writableLength <= this.#options.maxUnsentBytes;
  }

  /** Resolves once Node's buffer has drained below its mark (or the stream has ended). */
  ready(): Promise<void> {
    if (this.ended || !this.#raw.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#raw.off('drain', done);
        this.#raw.off('close', done);
        resolve();
      };
      this.#raw.once('drain', done);
      this.#raw.once('close', done);
    });
  }

  /** Ends the response (what the client has not taken is dropped if it was too slow). */
  end(options: { readonly abort: boolean }): void {
    if (this.#ended) return;
    this.#stop();
    if (!this.#opened) return;
    if (options.abort) this.#raw.destroy();
    else this.#raw.end();
  }

  #stop(): void {
    this.#ended = true;
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}

/** An event's type and data as SSE frames them: the part every stream sends alike. */
export function sseEventBody(type: string, json: string): string {
  return `event: ${type}\ndata: ${json}\n\n`;
}

/** An event with its id (the stream's position after it), ready to write. */
export function sseFrame(id: string, body: string): string {
  return `id: ${id}\n${body}`;
}
