/**
 * The console's one subscription to `GET /v1/events` (issue 23, ADR 0129), shared by every
 * page that updates live: opened with the first listener, closed with the last. The session
 * cookie authenticates it, like every console call. EventSource reconnects by itself after a
 * network error, resuming with Last-Event-ID; an answer that is not a stream (no scope, too
 * many streams) closes it for good, and `failed` tells the pages to fall back to a timer.
 */

/** What a page needs of an event: its type and the link it is about. */
export interface LiveEvent {
  readonly type: string;
  readonly linkId: string | null;
}

type Listener = (event: LiveEvent) => void;

const EVENT_TYPES = ['link.created', 'link.updated', 'link.deleted', 'link.clicked'] as const;

const listeners = new Set<Listener>();
const failureListeners = new Set<() => void>();
let source: EventSource | null = null;
let failed = typeof EventSource === 'undefined';

function linkIdOf(data: string): string | null {
  try {
    const body = JSON.parse(data) as { data?: { id?: unknown; link_id?: unknown } };
    const id = body.data?.link_id ?? body.data?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

function open(): void {
  const stream = new EventSource('/v1/events');
  for (const type of EVENT_TYPES) {
    stream.addEventListener(type, (message) => {
      const event = { type, linkId: linkIdOf((message as MessageEvent<string>).data) };
      for (const listener of listeners) listener(event);
    });
  }
  stream.addEventListener('error', () => {
    if (stream.readyState !== EventSource.CLOSED) return;
    failed = true;
    source = null;
    for (const listener of failureListeners) listener();
  });
  source = stream;
}

/** True when the stream cannot be had: the pages poll instead. */
export function liveEventsFailed(): boolean {
  return failed;
}

/** Listens to every event; `onFailure` when the stream closes for good. Returns the unsubscribe. */
export function subscribeLiveEvents(listener: Listener, onFailure: () => void): () => void {
  listeners.add(listener);
  failureListeners.add(onFailure);
  if (source === null && !failed) open();
  return () => {
    listeners.delete(listener);
    failureListeners.delete(onFailure);
    if (listeners.size === 0 && source !== null) {
      source.close();
      source = null;
    }
  };
}
