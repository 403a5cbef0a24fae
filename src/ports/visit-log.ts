import type { Visit } from '../domain/click-visits.js';

/** A visit as the log holds it: its id orders visits of one millisecond. */
export interface StoredVisit extends Visit {
  readonly id: number;
}

/** Where a page of visits continues: after the visit at (`at`, `id`), going back in time. */
export interface VisitPosition {
  readonly at: number;
  readonly id: number;
}

export interface VisitPageQuery {
  readonly linkId: string;
  /** Inclusive, epoch ms. */
  readonly fromMs: number;
  /** Exclusive, epoch ms. */
  readonly toMs: number;
  /** Only visits older than this position (the last of the page before); null: the newest. */
  readonly after: VisitPosition | null;
  readonly limit: number;
}

/**
 * The visit log of issue 23 (ADR 0125): one row per counted click, written by the fold
 * (ClickStore.fold with `logVisits`), read newest first, bounded by retention.
 */
export interface VisitLog {
  /** Up to `limit` visits of a link in [fromMs, toMs), newest first (at, then id, descending). */
  page(query: VisitPageQuery): Promise<readonly StoredVisit[]>;
  /**
   * Removes visits older than `olderThanMs`, at most `limit` rows (or, partitioned, whole
   * days) per call; how many it removed, 0 when none is left.
   */
  forgetBefore(olderThanMs: number, limit: number): Promise<number>;
  /** Makes room for the days ahead of `nowMs` (PostgreSQL's day partitions); idempotent. */
  prepare(nowMs: number): Promise<void>;
}
