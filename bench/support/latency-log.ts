/**
 * Every latency of one run, kept in full so that percentiles are exact (no histogram
 * buckets). Preallocated for the expected count so recording allocates nothing.
 */
export class LatencyLog {
  private values: Float64Array;
  private count = 0;

  constructor(expected: number) {
    this.values = new Float64Array(Math.max(1024, Math.ceil(expected)));
  }

  record(ms: number): void {
    if (this.count === this.values.length) {
      // A closed-loop run can outpace the guess: double rather than drop samples.
      const larger = new Float64Array(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values[this.count++] = ms;
  }

  /** The latencies recorded, in the order they came. */
  recorded(): Float64Array {
    return this.values.subarray(0, this.count);
  }
}

/**
 * Nearest-rank percentiles: for each p, the smallest latency that p% of requests did not
 * exceed. Sorts a copy; the input is left as it is.
 */
export function percentiles(latencies: Float64Array, ps: readonly number[]): number[] {
  const count = latencies.length;
  if (count === 0) return ps.map(() => 0);
  const sorted = latencies.slice().sort();
  return ps.map((p) => sorted[Math.max(0, Math.ceil((p / 100) * count) - 1)] ?? 0);
}
