import type { Clock } from '../../src/ports/clock.js';

/** A clock that moves only when the test says so: expiry without waiting. */
export class ManualClock implements Clock {
  #nowMs: number;
  constructor(startMs: number) {
    this.#nowMs = startMs;
  }
  now(): number {
    return this.#nowMs;
  }
  advance(ms: number): void {
    this.#nowMs += ms;
  }
}
