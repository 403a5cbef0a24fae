import type { Clock } from '../../ports/clock.js';
import type { ClickStore } from '../../ports/click-store.js';
import type { LinkRepository } from '../../ports/link-repository.js';

/** What the analytics use cases need, built once by the composition root. */
export interface AnalyticsDeps {
  readonly links: Pick<LinkRepository, 'findLinkById'>;
  readonly clicks: ClickStore;
  readonly clock: Clock;
}
