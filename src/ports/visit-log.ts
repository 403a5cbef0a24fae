import type { Visit } from '../domain/click-visits.js';

/**
 * A visit as the log holds it. A row holds the alike visits of one fold bucket (ADR 0130):
 * `id` is the row's, which orders rows of one millisecond, and `ordinal` this visit's
 * place among the row's (from 1).
 */
export interface StoredVisit extends Visit {
  readonly id: number;
  readonly ordinal: number;
}

/**
 * Where a page of visits continues, going back in time: after the `ordinal`th visit of the
 * row (`at`, `id`).
 */
export interface VisitPosition {
  readonly at: number;
  readonly id: number;
  readonly ordinal: number;
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
 * The visit log of issue 23 (ADR 0125): one visit per counted click, kept as one row per
 * fold bucket with its count (ADR 0130), written by the fold
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
