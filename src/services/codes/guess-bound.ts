import type { Link } from '../../domain/link.js';
import type { Clock } from '../../ports/clock.js';
import type { CodeGenerator } from '../../ports/code-generator.js';
import type { LinkCensus } from '../../ports/link-census.js';
import type { LinkEvents } from '../../ports/link-events.js';

export interface GuessBoundOptions {
  readonly generator: CodeGenerator;
  readonly census: LinkCensus;
  readonly clock: Clock;
  /** HOP_GUESS_BOUND. */
  readonly bound: number;
  /** Links per census read: a few milliseconds of the store each. */
  readonly sliceSize: number;
  /** Lets other work run between census reads. */
  readonly yieldBetweenSlices: () => Promise<void>;
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
  /** For people (the console), not the bound: custom aliases count here between censuses. */
  #liveLinks = 0;
  #allLinks = 0;
  #counted = false;
  #census: Promise<void> | null = null;
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

  /** Links of every state as of the last census plus creates since; null before the first. */
  get allLinks(): number | null {
    return this.#counted ? this.#allLinks : null;
  }

  /**
   * Redirecting links as of the last census plus every create since, custom ones too
   * (activeLinks leaves those out between censuses); null before the first census.
   */
  get liveLinks(): number | null {
    return this.#counted ? this.#liveLinks : null;
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

  /** Counts active links anew; concurrent calls share one census. */
  refresh(): Promise<void> {
    this.#census ??= this.#count().finally(() => {
      this.#census = null;
    });
    return this.#census;
  }

  linkCreated(link: Link): void {
    if (!this.#counted) return;
    this.#allLinks++;
    this.#liveLinks++;
    if (link.custom) return;
    this.#activeLinks++;
    this.#enforce();
  }

  linkChanged(): void {
    // Disables, deletes and expiry lower the count; the next census sees them.
  }

  async #count(): Promise<void> {
    const { census, clock, sliceSize, yieldBetweenSlices } = this.#options;
    const nowMs = clock.now();
    let active = 0;
    let all = 0;
    let afterId: string | null = null;
    for (;;) {
      const slice = await census.countSlice(nowMs, afterId, sliceSize);
      active += slice.active;
      all += slice.seen;
      if (slice.seen < sliceSize || slice.lastId === null) break;
      afterId = slice.lastId;
      await yieldBetweenSlices();
    }
    this.#activeLinks = active;
    this.#liveLinks = active;
    this.#allLinks = all;
    this.#counted = true;
    this.#enforce();
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
