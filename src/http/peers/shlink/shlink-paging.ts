import { invalidData } from './shlink-problem.js';

/** A page as Shlink numbers them: from 1; `itemsPerPage` -1 (or none, where so) for all. */
export interface PageRequest {
  readonly page: number;
  /** null: every item on one page. */
  readonly itemsPerPage: number | null;
}

/** `page` and `itemsPerPage` of a query; `defaultPerPage` null: all items (tags, visits). */
export function pageRequestOf(
  query: Readonly<Record<string, unknown>>,
  defaultPerPage: number | null,
): PageRequest {
  const bad: string[] = [];
  const page = wholeNumber(query['page'], 1);
  if (page === null || page < 1) bad.push('page');
  const perPage = wholeNumber(query['itemsPerPage'], defaultPerPage ?? -1);
  if (perPage === null || perPage === 0 || perPage < -1) bad.push('itemsPerPage');
  if (bad.length > 0) throw invalidData(bad);
  return { page: page ?? 1, itemsPerPage: perPage === -1 ? null : perPage };
}

function wholeNumber(value: unknown, fallback: number): number | null {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) return null;
  return Number(value);
}

/** Shlink's `pagination` member (`definitions/Pagination.json`). */
export interface Pagination {
  readonly currentPage: number;
  readonly pagesCount: number;
  readonly itemsPerPage: number;
  readonly itemsInCurrentPage: number;
  readonly totalItems: number;
}

/** The items of the page asked for, and Shlink's pagination of them. */
export function paginate<T>(
  items: readonly T[],
  request: PageRequest,
): { data: T[]; pagination: Pagination } {
  const perPage = request.itemsPerPage ?? Math.max(items.length, 1);
  const start = (request.page - 1) * perPage;
  return paginated(items.slice(start, start + perPage), items.length, request);
}

/**
 * The items a page asks for: `count` from `offset` (from 0), `count` null for all. With
 * every item on one page, any page past the first is empty.
 */
export function rangeOf(request: PageRequest): { offset: number; count: number | null } {
  if (request.itemsPerPage === null) return { offset: 0, count: request.page === 1 ? null : 0 };
  // Far past any end, a page is empty: the offset only has to stay a safe integer.
  const offset = Math.min((request.page - 1) * request.itemsPerPage, Number.MAX_SAFE_INTEGER);
  return { offset, count: request.itemsPerPage };
}

/** A page already read (`rangeOf`'s items) and Shlink's pagination of `totalItems` in all. */
export function paginated<T>(
  data: T[],
  totalItems: number,
  request: PageRequest,
): { data: T[]; pagination: Pagination } {
  const perPage = request.itemsPerPage ?? Math.max(totalItems, 1);
  return {
    data,
    pagination: {
      currentPage: request.page,
      pagesCount: Math.max(1, Math.ceil(totalItems / perPage)),
      itemsPerPage: perPage,
      itemsInCurrentPage: data.length,
      totalItems,
    },
  };
}

/** A repeatable query parameter as Shlink's clients send it (`tags[]=a&tags[]=b`) or plain. */
export function listParam(
  query: Readonly<Record<string, unknown>>,
  name: string,
): string[] | undefined {
  const values = [query[`${name}[]`], query[name]].flat().filter((value) => value !== undefined);
  if (values.length === 0) return undefined;
  if (!values.every((value): value is string => typeof value === 'string'))
    throw invalidData([name]);
  return values;
}

/** A single-valued query parameter: a string or absent; repeated is invalid data. */
export function stringParam(
  query: Readonly<Record<string, unknown>>,
  name: string,
): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidData([name]);
  return value;
}

/** A date parameter (`startDate`, `endDate`, `validUntil`): epoch ms, or invalid-data naming it. */
export function dateParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  // The last instant a Date holds is refused too: an end date is read up to the
  // millisecond after it, which no Date can hold.
  if (Number.isNaN(ms) || Math.abs(ms) >= LAST_DATE_MS) throw invalidData([name]);
  return ms;
}

/** ECMAScript's bound on a time value (±8.64e15 ms, ECMA-262 §21.4.1.1). */
const LAST_DATE_MS = 8.64e15;
