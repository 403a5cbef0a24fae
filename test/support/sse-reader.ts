import { eventually } from './eventually.js';

/** One event as a Server-Sent Events client sees it. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * A small SSE client over Node's fetch (WHATWG HTML §9.2.6, the parts hop uses: `id`,
 * `event`, one `data` line, comments), reading as the frames come.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  /** Comment lines seen (hop's first line and its heartbeats). */
  comments = 0;
  /** True once the server ended the stream (or it failed). */
  ended = false;
  readonly #controller: AbortController;

  private constructor(body: ReadableStream<Uint8Array>, controller: AbortController) {
    this.#controller = controller;
    void this.#read(body);
  }

  /** Opens a stream; a response other than 200 comes back as it is, read whole. */
  static async open(
    url: string,
    headers: Record<string, string>,
  ): Promise<
    | { readonly status: 200; readonly headers: Headers; readonly reader: SseReader }
    | {
        readonly status: number;
        readonly headers: Headers;
        readonly text: string;
        readonly json: any;
      }
  > {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    if (response.status !== 200 || response.body === null) {
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    }
    return {
      status: 200,
      headers: response.headers,
      reader: new SseReader(response.body, controller),
    };
  }

  /** The events' parsed data, in order. */
  get bodies(): any[] {
    return this.events.map((event) => JSON.parse(event.data) as unknown);
  }

  /** Waits (bounded polling, `polls` times 10 ms) until `check` holds of what has arrived. */
  async waitFor(
    check: (reader: SseReader) => boolean,
    what: string,
    polls?: number,
  ): Promise<void> {
    await eventually(async () => check(this) || this.ended, what, polls);
    if (!check(this)) {
      throw new Error(`the stream ended before ${what}: ${JSON.stringify(this.events)}`);
    }
  }

  /** Closes the connection from the client's side. */
  close(): void {
    this.#controller.abort();
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          this.#frame(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
        }
      }
    } catch {
      // Aborted by close(), or the connection dropped: either way it has ended.
    }
    this.ended = true;
  }

  #frame(text: string): void {
    let id: string | undefined;
    let event = 'message';
    let data: string | undefined;
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data !== undefined) this.events.push({ id, event, data });
  }
}
