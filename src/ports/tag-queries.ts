/** One tag as the links a caller can see carry it. */
export interface TagCount {
  readonly name: string;
  /** Links carrying the tag, in any state but deleted. */
  readonly links: number;
  /** The sum of those links' all-time clicks (people's; bots are apart: ADR 0094). */
  readonly clicks: number;
}

export interface TagQuery {
  /** Only this owner's links; `undefined` for all owners (admin). */
  readonly owner?: string | undefined;
  /**
   * Only links on these domains (stored hosts, `''` the default; issue 22); `undefined`
   * for every domain. An empty list matches nothing.
   */
  readonly domains?: readonly string[] | undefined;
  /** Case-insensitive substring of the name. */
  readonly search?: string | undefined;
  /** Exactly this name (a rename's answer), instead of a page of names. */
  readonly name?: string | undefined;
  /** Only names sorting after this one (the previous page's last name). */
  readonly afterName?: string | undefined;
  readonly limit: number;
}

/** The tags of links, counted (issue 22, ADR 0119). */
export interface TagQueries {
  /**
   * Tags of the matching links that are not deleted, by name in code point order (the
   * same on every store), at most `limit`, each with its links and their clicks.
   */
  listTags(query: TagQuery): Promise<readonly TagCount[]>;
}
