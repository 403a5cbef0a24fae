/**
 * The environment every bench script reads the same way. Each script documents which of
 * these it uses, and its own.
 */
interface BenchSettings {
  /**
   * BENCH_SECONDS: one measured window (default 30). Two of hop's 15 s folds fit in one,
   * so a window carries the fold work of the clicks it makes (ADR 0131); 10 s windows
   * held one fold or none and scattered by that.
   */
  readonly seconds: number;
  /** BENCH_ROUNDS: measured windows per server, or per process pair (default 2). */
  readonly rounds: number;
  /** BENCH_WARMUP_SECONDS: load before the first window, not measured (default 3). */
  readonly warmupSeconds: number;
  /** BENCH_CONNECTIONS: closed-loop connections in all (default 50). */
  readonly connections: number;
}

export function readBenchSettings(): BenchSettings {
  return {
    seconds: numberFromEnv('BENCH_SECONDS', 30),
    rounds: numberFromEnv('BENCH_ROUNDS', 2),
    warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 3),
    connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  };
}

/** A positive number from the environment, or the fallback when unset. */
export function numberFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
