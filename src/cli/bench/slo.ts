/**
 * SPEC §1: server-side latency p80 < 5 ms, p99 < 20 ms, mean < 10 ms; 40,000 redirects/s
 * at peak (for the whole service, however many instances it runs on).
 */
export const SLO = Object.freeze({ p80Ms: 5, p99Ms: 20, meanMs: 10, peakRps: 40_000 });
