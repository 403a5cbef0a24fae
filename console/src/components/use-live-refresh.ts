import { useEffect } from 'preact/hooks';

/** As often as clicks are folded (hop serve's aggregator, every 15 s): new data, no sooner. */
export const LIVE_REFRESH_MS = 15_000;

/**
 * Calls `refresh` whenever the data behind a page may have changed: today on a timer at
 * the fold's cadence, skipped while the tab is in the background. The one place to switch
 * to the event stream (`GET /v1/events`, issue 23) once it exists: subscribe there and
 * call `refresh` on each batch of clicks, and every page using this follows.
 */
export function useLiveRefresh(refresh: () => void, everyMs = LIVE_REFRESH_MS): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) refresh();
    }, everyMs);
    return () => {
      clearInterval(timer);
    };
  }, [refresh, everyMs]);
}
