import type { Registry } from 'prom-client';

/**
 * A Prometheus histogram for the redirect path. prom-client's own `observe` validates and
 * hashes the label set on every call; here each outcome owns a preallocated array of
 * bucket counts, so an observation is a bound search and two adds. prom-client still
 * renders it: this object has the shape its Registry asks of a metric.
 */
export class LeanHistogram<Outcome extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #label: string;
  readonly #series: Map<Outcome, { buckets: Float64Array; sum: number; count: number }>;

  constructor(options: {
    name: string;
    help: string;
    label: string;
    values: readonly Outcome[];
    bounds: readonly number[];
    registry: Registry;
  }) {
    this.name = options.name;
    this.help = options.help;
    this.#label = options.label;
    this.#bounds = options.bounds;
    this.#series = new Map(
      options.values.map((value) => [
        value,
        { buckets: new Float64Array(options.bounds.length), sum: 0, count: 0 },
      ]),
    );
    options.registry.registerMetric(this as never);
  }

  /** Records `seconds` under `outcome`; unknown outcomes are ignored. */
  observe(outcome: Outcome, seconds: number): void {
    const series = this.#series.get(outcome);
    if (series === undefined) return;
    series.sum += seconds;
    series.count++;
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= (bounds[i] as number)) {
        series.buckets[i] = (series.buckets[i] as number) + 1;
        return;
      }
    }
  }

  /** The shape prom-client's Registry renders (cumulative buckets, then +Inf, sum, count). */
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: unknown[];
  }> {
    const values: unknown[] = [];
    for (const [outcome, series] of this.#series) {
      const labels = { [this.#label]: outcome };
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += series.buckets[i] as number;
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...labels, le: bound },
          value: cumulative,
        });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { ...labels, le: '+Inf' },
        value: series.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: series.count });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  get bounds(): readonly number[] {
    return this.#bounds;
  }

  /**
   * The counts of `outcomes` (default: every one) added up per bucket (not cumulative),
   * +Inf last, into `into`.
   */
  addCountsInto(into: Float64Array, outcomes?: ReadonlySet<Outcome>): void {
    into.fill(0);
    const last = this.#bounds.length;
    for (const [outcome, series] of this.#series) {
      if (outcomes !== undefined && !outcomes.has(outcome)) continue;
      let counted = 0;
      for (let i = 0; i < last; i++) {
        const n = series.buckets[i] as number;
        into[i] = (into[i] as number) + n;
        counted += n;
      }
      into[last] = (into[last] as number) + series.count - counted;
    }
  }

  reset(): void {
    for (const series of this.#series.values()) {
      series.buckets.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
