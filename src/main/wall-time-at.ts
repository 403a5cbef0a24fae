// Not the global `performance`, an accessor: a getter call at each use (BENCHMARKS.md, 2026-12-07).
import { performance } from 'node:perf_hooks';
import { systemClock, type Clock } from '../ports/clock.js';

/** How long the system clock's offset from the monotonic one is trusted, in ms. */
const OFFSET_KEPT_MS = 1000;

let anchoredAt = -Infinity;
let offset = 0;

/** The system clock's time at a `performance.now()` reading: one offset for the process. */
function systemTimeAt(monotonicMs: number): number {
  if (monotonicMs - anchoredAt >= OFFSET_KEPT_MS) {
    anchoredAt = performance.now();
    offset = Date.now() - anchoredAt;
  }
  return Math.floor(monotonicMs + offset);
}

/**
 * Turns a `performance.now()` reading into `clock`'s epoch milliseconds, so that a redirect
 * reads the clock once, at its start, for its latency, its click and its rules (ADR 0152):
 * `Date.now()` is a call into V8's runtime, about 1% of a redirect's CPU in `perf`. For the
 * system clock (`systemClock` itself, the one `hop serve` composes), the reading plus the
 * offset between the two clocks, itself read again when a second old (a step of the system
 * clock reaches clicks within a second), in whole ms as `Date.now()` gives them, one offset
 * for clicks and rules alike; any other clock (tests move theirs by hand) answers its own
 * now, whatever the reading.
 */
export function wallTimeAt(clock: Clock): (monotonicMs: number) => number {
  return clock === systemClock ? systemTimeAt : () => clock.now();
}
