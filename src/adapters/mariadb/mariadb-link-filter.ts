import type { QueryValues } from 'mysql2/promise';
import type { LinkFilterQuery } from '../../ports/link-repository.js';
import { stateCondition } from '../sql/link-sql.js';

/**
 * Values bound by name (`:p1`), for statements assembled from parts: a name may appear more
 * than once and in any order, as PostgreSQL's `$n` (link-sql's keyset condition uses its
 * value twice), where mysql2's `?` must follow the text. The query runs with
 * `namedPlaceholders: true`; mysql2 still escapes every value.
 */
export interface NamedValues {
  readonly values: Record<string, QueryValues>;
  /** Binds `value`; returns its placeholder. Takes `unknown` as link-sql's builders bind. */
  readonly param: (value: unknown) => string;
}

export function namedValues(): NamedValues {
  const values: Record<string, QueryValues> = {};
  let count = 0;
  return {
    values,
    param: (value) => {
      count += 1;
      const name = `p${count}`;
      // The values bound here are strings, numbers, booleans, null and string arrays.
      values[name] = value as QueryValues;
      return `:${name}`;
    },
  };
}

/**
 * The WHERE conditions of a filter, shared by the list, the count and the sum; null when
 * no link can match (an empty list of domains). No NUL needs filtering out, unlike on
 * PostgreSQL: MariaDB's text holds it, and a value with one simply matches nothing.
 */
export function filterConditions(
  query: LinkFilterQuery,
  param: (value: unknown) => string,
): string[] | null {
  if (query.domains?.length === 0) return null;
  const where: string[] = [];
  if (query.owner !== undefined) where.push(`links.owner = ${param(query.owner)}`);
  if (query.domains !== undefined) where.push(`links.domain IN (${param(query.domains)})`);
  if (query.search !== undefined && query.search !== '') {
    // LOCATE, not LIKE: %, _ and backslashes are literal. The tables' collation compares
    // bytes, so the case is folded on both sides (LOWER follows Unicode beyond ASCII).
    const search = param(query.search.toLowerCase());
    where.push(
      `(LOCATE(${search}, LOWER(links.code)) > 0 OR LOCATE(${search}, LOWER(links.destination)) > 0
        OR LOCATE(${search}, LOWER(COALESCE(links.title, ''))) > 0)`,
    );
  }
  // No index serves these (MariaDB has no GIN): the other conditions narrow the scan first.
  const tags = query.tags ?? [];
  if (tags.length > 0) {
    const wanted = param(JSON.stringify(tags));
    where.push(
      query.tagsMode === 'all'
        ? `JSON_CONTAINS(links.tags, ${wanted})`
        : `JSON_OVERLAPS(links.tags, ${wanted})`,
    );
  }
  const excluded = query.excludeTags ?? [];
  if (excluded.length > 0) {
    where.push(`NOT JSON_OVERLAPS(links.tags, ${param(JSON.stringify(excluded))})`);
  }
  where.push(stateCondition(query.state, () => param(query.nowMs)));
  return where;
}
