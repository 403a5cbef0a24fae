import type { Clock } from '../../ports/clock.js';
import type { ClickAnalyticsQueries } from '../../ports/click-analytics-queries.js';
import type { ClickStore } from '../../ports/click-store.js';
import type { DomainStore } from '../../ports/domain-store.js';
import type { LinkLookups } from '../links/find-visible-link.js';
import type { VisitLog } from '../../ports/visit-log.js';

/** What the analytics use cases need, built once by the composition root. */
export interface AnalyticsDeps {
  readonly links: LinkLookups;
  readonly clicks: ClickStore;
  /** Clicks summed across all of a caller's links (`GET /v1/analytics`, ADR 0126). */
  readonly acrossLinks: ClickAnalyticsQueries;
  /** A `domain` filter names a domain that exists (issue 22). */
  readonly domains: Pick<DomainStore, 'findDomain'>;
  /** Each counted click, when HOP_VISIT_LOG is on (ADR 0125). */
  readonly visits: VisitLog;
  readonly clock: Clock;
  /** The host of HOP_PUBLIC_URL: a `domain` naming it is the default domain (issue 22). */
  readonly defaultHost: string;
}
