import type { Link } from '../../domain/link.js';
import type { Clock } from '../../ports/clock.js';
import type { CodeGenerator } from '../../ports/code-generator.js';
import type { LinkCountsByState } from '../../ports/link-census.js';
import type { LinkEvents } from '../../ports/link-events.js';
import { walkCensus, type CensusWalk } from '../stats/walk-census.js';

export interface GuessBoundOptions extends CensusWalk {
  readonly generator: CodeGenerator;
  readonly clock: Clock;
  /** HOP_GUESS_BOUND. */
  readonly bound: number;
}

/** What one census counted, at the clock reading it counted at. */
export interface CensusResult {
  readonly counts: LinkCountsByState;
  readonly countedAt: number;
}

/** Active links over the number of codes of this length: a random guess's chance to hit. */
export function guessProbability(
  activeLinks: number,
  alphabetSize: number,
  length: number,
): number {
  return activeLinks / alphabetSize ** length;
}

/**
 * Keeps the guess probability (SPEC §2) under its bound: the census counts active links now
 * and then (at start and after each sweep), creates in between add one each, and whenever
 * the probability passes the bound the generator is told to make codes one character
 * longer. Expiry and deletions only lower it, so counting between censuses errs high.
 * Lengths never shrink while running; a restart starts from HOP_CODE_LENGTH and grows again
 * as far as the census says.
 */
export class GuessBound implements LinkEvents {
  readonly #options: GuessBoundOptions;
  #activeLinks = 0;
  #counted = false;
  /** True once the generator refused to grow (a pool is as wide as its file). */
  #stuck = false;

  constructor(options: GuessBoundOptions) {
    this.#options = options;
  }

  get bound(): number {
    return this.#options.bound;
  }

  /** Active links as of the last census plus creates since; null before the first census. */
  get activeLinks(): number | null {
    return this.#counted ? this.#activeLinks : null;
  }

  get codeSpace(): number {
    const { generator } = this.#options;
    return generator.alphabetSize ** generator.length;
  }

  get probability(): number | null {
    if (!this.#counted) return null;
    const { generator } = this.#options;
    return guessProbability(this.#activeLinks, generator.alphabetSize, generator.length);
  }

  /** True when the probability is over the bound and the strategy cannot grow its codes. */
  get overBound(): boolean {
    return this.#stuck;
  }

  /**
   * Counts links anew, by state (what people see: ADR 0100). Its caller, LinkCounts, saves
   * the result and makes concurrent recounts share one census.
   */
  refresh(): Promise<CensusResult> {
    return this.#count();
  }

  linkCreated(link: Link): void {
    if (!this.#counted) return;
    if (link.custom) return;
    this.#activeLinks++;
    this.#enforce();
  }

  linkChanged(): void {
    // Disables, deletes and expiry lower the count; the next census sees them.
  }

  async #count(): Promise<CensusResult> {
    const countedAt = this.#options.clock.now();
    const counts = await walkCensus(this.#options, countedAt);
    this.#activeLinks = counts.active;
    this.#counted = true;
    this.#enforce();
    return { counts, countedAt };
  }

  #enforce(): void {
    const { generator, bound } = this.#options;
    this.#stuck = false;
    while (guessProbability(this.#activeLinks, generator.alphabetSize, generator.length) > bound) {
      if (!generator.growTo(generator.length + 1)) {
        this.#stuck = true;
        return;
      }
    }
  }
}
