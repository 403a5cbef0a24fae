import type { LeanHistogram } from './lean-histogram.js';

/** The redirect path over the last seconds, for the console's dashboard. */
export interface RecentRedirects {
  readonly windowSeconds: number;
  readonly perSecond: number;
  /** The 99th percentile in ms, interpolated within its histogram bucket; null when idle. */
  readonly p99Ms: number | null;
}

const SAMPLE_MS = 1000;
const WINDOW_SAMPLES = 10;

/**
 * Samples the redirect histogram once a second and answers from the difference between
 * the newest sample and the one a window ago. The redirect path pays nothing for it: it
 * only ever adds to the histogram it already keeps.
 */
export class RecentRedirectsWindow<Outcome extends string> {
  readonly #histogram: LeanHistogram<Outcome>;
  /** Only answers that redirected: 404s (a scanner's, say) would pull the p99 down. */
  readonly #outcomes: ReadonlySet<Outcome>;
  /** Ring of samples: per-bucket counts at the time in #takenAt. */
  readonly #samples: Float64Array[];
  readonly #takenAt: number[];
  #newest = -1;
  readonly #timer: NodeJS.Timeout;

  constructor(histogram: LeanHistogram<Outcome>, outcomes: ReadonlySet<Outcome>) {
    this.#histogram = histogram;
    this.#outcomes = outcomes;
    const width = histogram.bounds.length + 1;
    this.#samples = Array.from({ length: WINDOW_SAMPLES + 1 }, () => new Float64Array(width));
    this.#takenAt = new Array<number>(WINDOW_SAMPLES + 1).fill(0);
    this.#sample();
    this.#timer = setInterval(() => {
      this.#sample();
    }, SAMPLE_MS);
    this.#timer.unref();
  }

  read(): RecentRedirects {
    // The newest counts are read now, so a quiet second is not reported as the last busy one.
    const width = this.#histogram.bounds.length + 1;
    const now = new Float64Array(width);
    this.#histogram.addCountsInto(now, this.#outcomes);
    const taken = Math.min(this.#newest + 1, this.#samples.length);
    const oldestIndex =
      taken < this.#samples.length ? 0 : (this.#newest + 1) % this.#samples.length;
    const oldest = this.#samples[oldestIndex] as Float64Array;
    const seconds = Math.max(
      (performance.now() - (this.#takenAt[oldestIndex] as number)) / 1000,
      1e-3,
    );
    const delta = now.map((count, i) => count - (oldest[i] as number));
    const total = delta.reduce((sum, n) => sum + n, 0);
    return {
      windowSeconds: Math.max(1, Math.round(seconds)),
      perSecond: total / seconds,
      p99Ms: total === 0 ? null : quantileMs(delta, this.#histogram.bounds, total, 0.99),
    };
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #sample(): void {
    this.#newest++;
    const index = this.#newest % this.#samples.length;
    this.#histogram.addCountsInto(this.#samples[index] as Float64Array, this.#outcomes);
    this.#takenAt[index] = performance.now();
  }
}

/**
 * As Prometheus's histogram_quantile: linear within the bucket the rank falls in; a rank
 * in the +Inf bucket answers the largest finite bound.
 */
export function quantileMs(
  counts: Float64Array,
  bounds: readonly number[],
  total: number,
  q: number,
): number {
  const rank = q * total;
  let cumulative = 0;
  for (let i = 0; i < bounds.length; i++) {
    const inBucket = counts[i] as number;
    if (cumulative + inBucket >= rank && inBucket > 0) {
      const lower = i === 0 ? 0 : (bounds[i - 1] as number);
      const upper = bounds[i] as number;
      return (lower + ((upper - lower) * (rank - cumulative)) / inBucket) * 1000;
    }
    cumulative += inBucket;
  }
  return (bounds[bounds.length - 1] as number) * 1000;
}
