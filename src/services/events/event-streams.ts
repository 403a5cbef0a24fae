import type { Principal } from '../../domain/principal.js';
import type { EventSubscription, StreamEnd } from './event-hub.js';
import type { StreamPosition } from './stream-position.js';

/** Where an open stream's frames go: its route's response. */
export interface StreamFrames {
  /**
   * Writes frames, Server-Sent Events text ready to go out. False: the client holds too
   * much unsent already, and nothing more comes until `ready` resolves.
   */
  send(frames: string): boolean;
  /** Resolves when the client has room for more. */
  ready(): Promise<void>;
  /** The stream is ended; nothing more comes. */
  end(reason: StreamEnd): void;
}

/**
 * The event streams as `GET /v1/events` sees them (ADR 0129): an in-process hub (tests,
 * the CLI's runtime), or the integrations thread of `hop serve` (ADR 0132), which reads the
 * logs and renders the frames at low priority.
 */
export interface EventStreams {
  /**
   * Opens a stream for `principal` from `from` (null: from now); rejects with a HopError
   * (`rate-limited`: the key holds its most streams; `store-unavailable`: closing).
   */
  open(
    principal: Principal,
    from: StreamPosition | null,
    frames: StreamFrames,
  ): Promise<EventSubscription>;
  /** Ends every stream. */
  close(): Promise<void>;
}
