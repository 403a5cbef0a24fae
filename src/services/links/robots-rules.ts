import { renderRobotsTxt } from '../../domain/robots-txt.js';
import type { Clock } from '../../ports/clock.js';
import type { CrawlableLinks } from '../../ports/crawlable-links.js';

/** Allow lines at most: robots.txt stays small (Google reads 500 KiB; this is ~30 KiB). */
export const MAX_CRAWLABLE_PATHS = 1000;
/** How long one domain's robots.txt is kept: a link made crawlable shows within this. */
export const ROBOTS_TTL_MS = 60_000;
/** Domains whose robots.txt is kept at once; past it, all are forgotten and read again. */
const MAX_KEPT_DOMAINS = 1000;

interface Kept {
  readonly until: number;
  readonly text: Promise<string>;
}

export interface RobotsRulesDeps {
  readonly crawlable: CrawlableLinks;
  readonly clock: Clock;
}

/**
 * Each domain's robots.txt (ADR 0121), made from its crawlable links and kept briefly, so
 * crawlers asking often cost one read a minute per domain. Requests that come while one is
 * being read share it; a failed read is not kept.
 */
export class RobotsRules {
  readonly #deps: RobotsRulesDeps;
  readonly #kept = new Map<string, Kept>();

  constructor(deps: RobotsRulesDeps) {
    this.#deps = deps;
  }

  /** robots.txt of `domain` (its stored host; '' the default domain). */
  robotsTxt(domain: string): Promise<string> {
    const now = this.#deps.clock.now();
    const kept = this.#kept.get(domain);
    if (kept !== undefined && kept.until > now) return kept.text;
    if (this.#kept.size >= MAX_KEPT_DOMAINS) this.#kept.clear();
    const text = this.#deps.crawlable
      .listCrawlableCodes(domain, now, MAX_CRAWLABLE_PATHS)
      .then(renderRobotsTxt);
    const entry = { until: now + ROBOTS_TTL_MS, text };
    this.#kept.set(domain, entry);
    text.catch(() => {
      if (this.#kept.get(domain) === entry) this.#kept.delete(domain);
    });
    return text;
  }
}
