import type { Config } from '../config/config.js';
import { makeClientOf } from '../http/client-address.js';
import type { ProtectionDeps } from '../http/app-deps.js';
import { EventLoopLag } from '../observability/event-loop-lag.js';
import type { ProtectionCounters } from '../observability/metrics.js';
import type { Clock } from '../ports/clock.js';
import { LoadShedder } from '../services/protection/load-shedder.js';
import { ScannerThrottle } from '../services/protection/scanner-throttle.js';

/** Scanner throttling, load shedding and who the client is (SPEC §7, issue 8). */
export function composeProtection(
  config: Config,
  clock: Clock,
  blockedRedirects: () => number,
): { deps: ProtectionDeps; counters: () => ProtectionCounters; stop: () => void } {
  const lag = new EventLoopLag();
  lag.start();
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
    deps: { scanners, shedder, clientOf: makeClientOf(config.trustProxy) },
    counters: () => ({
      inFlight: shedder.inFlight,
      eventLoopLagSeconds: lag.lagMs() / 1000,
      shedRequests: shedder.shedRequests,
      shedRedirects: shedder.shedRedirects,
      throttledClients: scanners?.throttledClients ?? 0,
      throttledClientsTotal: scanners?.throttledClientsTotal ?? 0,
      throttledRequests: scanners?.refusedRequests ?? 0,
      blockedRedirects: blockedRedirects(),
    }),
    stop: () => {
      lag.stop();
    },
  };
}
