/** The links search engines may index (issue 22 `crawlable`; ADR 0121: robots.txt). */
export interface CrawlableLinks {
  /**
   * Codes of the links on `domain` (its stored host; '' the default domain) that are
   * crawlable, active and not expired at `nowMs`, newest first, at most `limit`.
   */
  listCrawlableCodes(domain: string, nowMs: number, limit: number): Promise<readonly string[]>;
}
