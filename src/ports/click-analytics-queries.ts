import type { TagsMode } from '../domain/link-tags.js';
import type { ClickSummary } from './click-store.js';

/** Which links' clicks are summed: every filter given narrows the set (issue 23). */
export interface LinkSelection {
  /** Only this owner's links; `undefined` for every owner (admin). */
  readonly owner?: string | undefined;
  /** Only links on these domains (stored hosts, `''` the default); an empty list matches none. */
  readonly domains?: readonly string[] | undefined;
  /** Only links carrying any of these tags (all of them with `tagsMode: 'all'`). */
  readonly tags?: readonly string[] | undefined;
  readonly tagsMode?: TagsMode | undefined;
  /** Only these links. */
  readonly linkIds?: readonly string[] | undefined;
}

/** One of the links with the most people's clicks in the range. */
export interface TopLink {
  readonly linkId: string;
  readonly code: string;
  /** The stored host (`''` the default domain). */
  readonly domain: string;
  readonly title: string | null;
  readonly clicks: number;
  readonly botClicks: number;
}

/**
 * The selected links' clicks within `[fromHour, toHour)`, as a link's summary has them
 * (hours with bots apart; dimensions people's only, at most `maxValues` rows each; no
 * cities), and the links with the most people's clicks (ties by link id), at most
 * `topLinks`.
 */
export type ClicksAcrossLinks = Omit<ClickSummary, 'cities'> & {
  readonly topLinks: readonly TopLink[];
};

/** Clicks summed across many links at once (`GET /v1/analytics`, ADR 0126). */
export interface ClickAnalyticsQueries {
  /**
   * Sums the hourly aggregates of the selected links that are not deleted, in one read
   * transaction: links first (by owner, domain, tag or id), then each one's buckets.
   */
  summarizeLinks(
    selection: LinkSelection,
    fromHour: number,
    toHour: number,
    limits: { readonly topLinks: number; readonly maxValues: number },
  ): Promise<ClicksAcrossLinks>;
}
