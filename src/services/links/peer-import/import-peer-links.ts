import { isHopError } from '../../../domain/errors.js';
import type { Link } from '../../../domain/link.js';
import { linkKey } from '../../../domain/link-domain.js';
import { assertScope, canSeeLinkOf, type Principal } from '../../../domain/principal.js';
import type { StartingCount } from '../../../ports/click-store.js';
import type {
  PeerImportOptions,
  PeerImportOutcome,
  PeerImportSummary,
} from './peer-import-outcome.js';
import { PeerImportDomains } from './peer-import-domains.js';
import type { PeerImportDeps } from './peer-import-deps.js';
import { isPeerRowProblem, type PeerLink, type PeerRow } from './peer-link.js';
import { checkPeerLink, linkOf, type PeerLinkFields } from './peer-link-fields.js';

export type { PeerImportDeps } from './peer-import-deps.js';

/** Starting counts are written this many at a time (and at the end). */
const COUNTS_PER_WRITE = 200;

/**
 * Imports a peer shortener's links with their codes, counts and states kept (issue 24,
 * ADR 0136). Each row becomes one outcome, told in the order read: `imported`, `unchanged`
 * (already here from an earlier run: nothing is written twice), `rejected` with what is
 * wrong (a code hop cannot serve or that is taken, a refused destination…), or `failed`
 * when the store does not answer, which stops the import, since every later row would
 * fail alike.
 *
 * Nothing is ever overwritten. A link is inserted first and its peer's click total kept as
 * its starting count after (a keyed write that replaces, never adds): a run stopped between
 * the two leaves a link whose re-run finds it `unchanged` and keeps its count then.
 */
export async function importPeerLinks(
  deps: PeerImportDeps,
  principal: Principal,
  rows: AsyncIterable<PeerRow>,
  options: PeerImportOptions,
): Promise<PeerImportSummary> {
  assertScope(principal, 'links:write');
  const run = new PeerImportRun(deps, principal, options.dryRun);
  const counts = { imported: 0, unchanged: 0, rejected: 0, clicks: 0 };
  let stopped: PeerImportSummary['stopped'] = null;
  // Outcomes wait here until the starting counts of their links are written, so a row is
  // never told done before its count is kept (or the import says it stopped).
  let held: PeerImportOutcome[] = [];
  // The clicks of the imported rows held: the summary counts them once they are written.
  let heldClicks = 0;
  const countHeldClicks = () => {
    counts.clicks += heldClicks;
    heldClicks = 0;
  };
  const tellHeld = () => {
    for (const outcome of held) options.onOutcome?.(outcome);
    held = [];
  };
  const stop = (source: string, error: unknown) => {
    tellHeld();
    stopped = { source, error };
    options.onOutcome?.({ kind: 'failed', source, error });
  };
  let lastSource = '';
  for await (const row of rows) {
    const outcome = await run.importRow(row);
    if (outcome.kind === 'failed') {
      // What was imported before keeps its count if the store still takes it.
      await run.writeCounts(0);
      stop(outcome.source, outcome.error);
      break;
    }
    lastSource = outcome.source;
    counts[outcome.kind]++;
    if (outcome.kind === 'imported' && !isPeerRowProblem(row)) heldClicks += row.clicks;
    held.push(outcome);
    const unwritten = await run.writeCounts(COUNTS_PER_WRITE);
    if (unwritten !== null) {
      stop(outcome.source, unwritten);
      break;
    }
    if (!run.hasPendingCounts()) {
      countHeldClicks();
      tellHeld();
    }
  }
  if (stopped === null) {
    const unwritten = await run.writeCounts(0);
    if (unwritten === null) {
      countHeldClicks();
      tellHeld();
    } else stop(lastSource, unwritten);
  }
  return { ...counts, stopped };
}

/** One import's state: the domains met, the codes taken so far, the counts not yet written. */
class PeerImportRun {
  readonly #deps: PeerImportDeps;
  readonly #principal: Principal;
  readonly #dryRun: boolean;
  readonly #domains: PeerImportDomains;
  /** Each code (by link key) taken by a row of this run, and that row's source. */
  readonly #taken = new Map<string, string>();
  #pendingCounts: StartingCount[] = [];

  constructor(deps: PeerImportDeps, principal: Principal, dryRun: boolean) {
    this.#deps = deps;
    this.#principal = principal;
    this.#dryRun = dryRun;
    this.#domains = new PeerImportDomains(deps, principal, dryRun);
  }

  async importRow(row: PeerRow): Promise<PeerImportOutcome> {
    if (isPeerRowProblem(row)) {
      return { kind: 'rejected', source: row.source, code: null, detail: row.problem };
    }
    try {
      return await this.#importLink(row);
    } catch (error) {
      // A HopError that a retry would not change is the row's; anything else the store's.
      if (isHopError(error) && !error.retryable) {
        return { kind: 'rejected', source: row.source, code: row.code, detail: error.detail };
      }
      return { kind: 'failed', source: row.source, error };
    }
  }

  hasPendingCounts(): boolean {
    return this.#pendingCounts.length > 0;
  }

  /**
   * Writes the starting counts kept so far once there are at least `atLeast` of them (all
   * of them for 0). Returns the store's failure, or null.
   */
  async writeCounts(atLeast: number): Promise<unknown> {
    if (this.#pendingCounts.length === 0 || this.#pendingCounts.length < atLeast) return null;
    const counts = this.#pendingCounts;
    this.#pendingCounts = [];
    try {
      await this.#deps.startingCounts.keepStartingCounts(counts);
      return null;
    } catch (error) {
      return error;
    }
  }

  async #importLink(row: PeerLink): Promise<PeerImportOutcome> {
    const now = this.#deps.clock.now();
    const checked = checkPeerLink(this.#deps, row, now);
    if (!checked.ok) return this.#rejected(row, checked.detail);
    const domain = await this.#domains.verdictOf(row.domain);
    if (!domain.ok) return this.#rejected(row, domain.detail);
    const key = linkKey(domain.stored, row.code);
    const earlier = this.#taken.get(key);
    if (earlier !== undefined) {
      return this.#rejected(
        row,
        `The code "${row.code}" was taken by an earlier row (${earlier}).`,
      );
    }
    this.#taken.set(key, row.source);
    const fields = checked.fields;
    if (this.#dryRun) {
      const holder = await this.#deps.links.findLinkByCode(domain.stored, row.code);
      if (holder !== null) return this.#heldAlready(row, holder, fields);
      return { kind: 'imported', source: row.source, code: row.code, link: null };
    }
    const link = linkOf(
      fields,
      this.#deps.newIdAt(fields.createdAt),
      this.#principal.owner,
      domain.stored,
      now,
    );
    const result = await this.#deps.links.insertLink(link);
    if (result.kind === 'inserted') {
      this.#deps.events.linkCreated(result.link);
      if (fields.clicks > 0) this.#keepCount(result.link.id, fields.clicks);
      return { kind: 'imported', source: row.source, code: row.code, link: result.link };
    }
    const holder = await this.#deps.links.findLinkByCode(domain.stored, row.code);
    // Deleted for good between the insert and the read (purged): nothing holds the code now;
    // the row is reported and a re-run imports it.
    if (holder === null) return this.#rejected(row, `The code "${row.code}" was taken; run again.`);
    return this.#heldAlready(row, holder, fields);
  }

  /**
   * A code already held on hop: the same link from an earlier run of this import (same
   * owner and destination, a kept code) is `unchanged`, its count kept again in case that
   * run stopped before it; any other holder, a deleted one included, makes the row rejected.
   */
  #heldAlready(row: PeerLink, holder: Link, fields: PeerLinkFields): PeerImportOutcome {
    if (holder.state === 'deleted') {
      return this.#rejected(
        row,
        `The code "${row.code}" belonged to a deleted link; hop never gives a code to another link.`,
      );
    }
    const same =
      holder.custom &&
      holder.owner === this.#principal.owner &&
      holder.destination === fields.destination;
    if (same) {
      if (!this.#dryRun) this.#keepCount(holder.id, fields.clicks);
      return { kind: 'unchanged', source: row.source, code: row.code };
    }
    const named = canSeeLinkOf(this.#principal, holder.owner) ? ` (link ${holder.id})` : '';
    return this.#rejected(
      row,
      `The code "${row.code}" is already held by another link${named} on hop; it is left as it is.`,
    );
  }

  #keepCount(linkId: string, clicks: number): void {
    this.#pendingCounts.push({ linkId, clicks });
  }

  #rejected(row: PeerLink, detail: string): PeerImportOutcome {
    return { kind: 'rejected', source: row.source, code: row.code, detail };
  }
}
