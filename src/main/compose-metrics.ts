import {
  createMetrics,
  type Metrics,
  type MetricSourceReaders,
  type ProtectionCounters,
} from '../observability/metrics.js';
import type { ClickPipeline } from './click-pipeline.js';
import type { CacheParts } from './compose-caches.js';
import type { CodeParts } from './compose-codes.js';
import type { ServiceParts } from './compose-services.js';
import { METRIC_TABLE, type MetricSources, type RedirectSources } from './metric-table.js';

/** Breaker states in the order the metric reports them. */
const BREAKER_STATES = ['closed', 'half-open', 'open'];

/** `/metrics` (SPEC §8): METRIC_TABLE's rows, each read from where this process keeps it. */
export function composeMetrics(parts: {
  readonly caches: CacheParts;
  readonly clicks: ClickPipeline | null;
  readonly codes: CodeParts;
  readonly services: ServiceParts;
  readonly protection: () => ProtectionCounters;
}): Metrics {
  const { caches, clicks, codes, services, protection } = parts;
  const { shared } = caches;
  const redirect: RedirectSources = {
    resolver: caches.resolver,
    knownCodes: caches.knownCodes,
    breakerState: () => (shared === null ? null : BREAKER_STATES.indexOf(shared.breakerState)),
  };
  const clickCounters = clicks === null ? null : () => clicks.counters();
  const sources: MetricSourceReaders<MetricSources> = {
    redirect: () => redirect,
    codes: () => {
      const now = services.stats();
      return {
        guessProbability: now.guessProbability,
        codeLength: now.codeLength,
        poolRemaining: now.poolRemaining,
        poolExhaustions: codes.poolExhaustions(),
        linksCreated: now.linksCreated,
        createStoreRoundTrips: now.createStoreRoundTrips,
        sweeps: services.sweeps.runs,
        sweepFailures: services.sweeps.failures,
        sweptExpired: services.sweeps.expired,
        reclaimedCodes: services.sweeps.reclaimed,
        keyUseWriteFailures: services.keyService.uses.failures,
      };
    },
    protection,
    clicks: clickCounters,
    // Aggregator metrics only where an aggregator runs.
    aggregator: clickCounters?.().folded === null ? null : clickCounters,
  };
  return createMetrics(METRIC_TABLE, sources);
}
