import type { Config } from '../config/config.js';
import { makeClientOf } from '../http/client-address.js';
import type { ProtectionDeps } from '../http/app-deps.js';
import { EventLoopLag } from '../observability/event-loop-lag.js';
import type { ProtectionCounters } from '../observability/metrics.js';
import type { Clock } from '../ports/clock.js';
import { LoadShedder } from '../services/protection/load-shedder.js';
import { ScannerThrottle } from '../services/protection/scanner-throttle.js';

/** Scanner throttling, load shedding and who the client is (SPEC §7, ADRs 0079–0081). */
export function composeProtection(
  config: Config,
  clock: Clock,
): { deps: ProtectionDeps; counters: () => ProtectionCounters; stop: () => void } {
  // Sampled from the moment hop listens (buildApp's onListen): start-up's own long
  // synchronous steps are not overload, and must not shed the first requests.
  const lag = new EventLoopLag();
  const shedder = new LoadShedder({
    maxInFlight: config.maxInFlight,
    maxLagMs: config.shedLagMs,
    lagMs: lag.lagMs,
  });
  const scanners =
    config.scannerThreshold === 0
      ? null
      : new ScannerThrottle({
          threshold: config.scannerThreshold,
          windowMs: config.scannerWindowMs,
          coolDownMs: config.scannerCoolDownMs,
          now: () => clock.now(),
        });
  return {
    deps: {
      scanners,
      shedder,
      clientOf: makeClientOf(config.trustProxy),
      startLoadSampling: () => {
        lag.start();
      },
    },
    counters: () => ({
      inFlight: shedder.inFlight,
      eventLoopLagSeconds: lag.lagMs() / 1000,
      shedRequests: shedder.shedRequests,
      shedRedirects: shedder.shedRedirects,
      throttledClients: scanners?.throttledClients ?? 0,
      throttledClientsTotal: scanners?.throttledClientsTotal ?? 0,
      throttledRequests: scanners?.refusedRequests ?? 0,
    }),
    stop: () => {
      lag.stop();
    },
  };
}
