import { useEffect } from 'preact/hooks';
import { liveEventsFailed, subscribeLiveEvents, type LiveEvent } from '../live-events.js';

/** Without the event stream: as often as clicks are folded (every 15 s), no sooner. */
export const LIVE_REFRESH_MS = 15_000;
/** However many events come, a page reloads at most this often. */
const AT_MOST_EVERY_MS = 1_000;

/**
 * Calls `refresh` when the data behind a page changed: on each event of the live stream
 * (`GET /v1/events`, issue 23) that `matters`, at most once a second, skipped while the tab
 * is in the background. Without the stream (no scope for it, too many open), on a timer at
 * the fold's cadence. `everyMs`: a timer as well, for figures no event tells of (the admin's
 * redirect rates).
 */
export function useLiveRefresh(
  refresh: () => void,
  everyMs?: number,
  matters: (event: LiveEvent) => boolean = () => true,
): void {
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const refreshVisible = () => {
      if (!document.hidden) refresh();
    };
    const poll = (ms: number) => {
      if (timer === null) timer = setInterval(refreshVisible, ms);
    };
    const onEvent = (event: LiveEvent) => {
      if (!matters(event) || pending !== null) return;
      const wait = Math.max(0, last + AT_MOST_EVERY_MS - Date.now());
      pending = setTimeout(() => {
        pending = null;
        last = Date.now();
        refreshVisible();
      }, wait);
    };
    if (everyMs !== undefined) poll(everyMs);
    const unsubscribe = liveEventsFailed()
      ? null
      : subscribeLiveEvents(onEvent, () => {
          poll(everyMs ?? LIVE_REFRESH_MS);
        });
    if (unsubscribe === null) poll(everyMs ?? LIVE_REFRESH_MS);
    return () => {
      unsubscribe?.();
      if (timer !== null) clearInterval(timer);
      if (pending !== null) clearTimeout(pending);
    };
  }, [refresh, everyMs, matters]);
}
