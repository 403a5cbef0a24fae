import type { StreamEnd } from '../services/events/event-hub.js';
import type { StreamFrames } from '../services/events/event-streams.js';
import type { FromIntegrationsThread } from './integrations-thread.js';

/**
 * Frame characters sent to a stream's response and not yet taken past which the hub holds
 * that stream back: the response's own bound (STREAM_UNSENT_BYTES) is as large.
 */
const MAX_UNTAKEN = 1024 * 1024;

/**
 * A stream's frames on their way to its response: gathered over a turn of this thread's
 * loop and posted together; held back once MAX_UNTAKEN characters are untaken.
 */
export class FramesToResponse implements StreamFrames {
  readonly #id: number;
  readonly #post: (message: FromIntegrationsThread) => void;
  readonly #onEnd: () => void;
  #gathered = '';
  #untaken = 0;
  #waiters: (() => void)[] = [];
  #ended = false;

  /** `post`: to `hop serve`; `onEnd`: the hub ended the stream (its entries go). */
  constructor(id: number, post: (message: FromIntegrationsThread) => void, onEnd: () => void) {
    this.#id = id;
    this.#post = post;
    this.#onEnd = onEnd;
  }

  send(frames: string): boolean {
    if (this.#ended) return true;
    if (this.#gathered === '')
      setImmediate(() => {
        this.#flush();
      });
    this.#gathered += frames;
    this.#untaken += frames.length;
    return this.#untaken <= MAX_UNTAKEN;
  }

  ready(): Promise<void> {
    if (this.#ended || this.#untaken <= MAX_UNTAKEN) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  end(reason: StreamEnd): void {
    if (this.#ended) return;
    this.#flush();
    this.#ended = true;
    this.#onEnd();
    this.#post({ kind: 'end', id: this.#id, reason });
    this.#wake();
  }

  /** The response took `size` more characters. */
  taken(size: number): void {
    this.#untaken -= size;
    if (this.#untaken <= MAX_UNTAKEN) this.#wake();
  }

  /** The client went away: nothing more is posted. */
  drop(): void {
    this.#ended = true;
    this.#gathered = '';
    this.#wake();
  }

  #flush(): void {
    if (this.#ended || this.#gathered === '') return;
    this.#post({ kind: 'frames', id: this.#id, text: this.#gathered });
    this.#gathered = '';
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
