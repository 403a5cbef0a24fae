/**
 * The click pipeline's counters, read from a running hop's GET /metrics (Prometheus text):
 * what the `analytics` scenario reports to show that the clicks it caused were counted.
 */
export interface ClickCounters {
  /** hop_click_buffer_depth: recorded, not yet accepted by the sink. */
  readonly buffered: number;
  /** hop_click_events_flushed_total: accepted by the sink. */
  readonly flushed: number;
  /** hop_click_events_folded_total: folded into the aggregates; null without it (NATS sink). */
  readonly folded: number | null;
  /** hop_click_events_duplicate_total: seen again, not counted twice. */
  readonly duplicates: number;
  /** hop_click_events_dropped_total: refused by a full buffer. */
  readonly dropped: number;
}

export async function readClickCounters(port: number): Promise<ClickCounters> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics on port ${port} answered ${response.status}`);
  const text = await response.text();
  const value = (name: string): number | null => {
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return match === null ? null : Number(match[1]);
  };
  const required = (name: string): number => {
    const found = value(name);
    if (found === null) throw new Error(`hop on port ${port} has no ${name}: analytics off?`);
    return found;
  };
  return {
    buffered: required('hop_click_buffer_depth'),
    flushed: required('hop_click_events_flushed_total'),
    folded: value('hop_click_events_folded_total'),
    duplicates: value('hop_click_events_duplicate_total') ?? 0,
    dropped: required('hop_click_events_dropped_total'),
  };
}

/**
 * Polls until the hop's pipeline is idle: nothing buffered and, with an in-process
 * aggregator, everything flushed also folded. Returns the last counters and whether that
 * happened within `timeoutMs`.
 */
export async function waitUntilDrained(
  port: number,
  timeoutMs: number,
): Promise<{ counters: ClickCounters; drained: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counters = await readClickCounters(port);
    const folded = counters.folded === null ? counters.flushed : counters.folded;
    if (counters.buffered === 0 && folded + counters.duplicates >= counters.flushed) {
      return { counters, drained: true };
    }
    if (Date.now() >= deadline) return { counters, drained: false };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
