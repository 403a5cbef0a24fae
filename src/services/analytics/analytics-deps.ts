import type { Clock } from '../../ports/clock.js';
import type { ClickStore } from '../../ports/click-store.js';
import type { LinkStore } from '../../ports/link-store.js';

/** What the analytics use cases need, built once by the composition root. */
export interface AnalyticsDeps {
  readonly links: LinkStore;
  readonly clicks: ClickStore;
  readonly clock: Clock;
}
