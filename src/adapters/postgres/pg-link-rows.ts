import { linkFromRow, type LinkRowValues } from '../sql/link-rows.js';

/** A row of `links` as pg reads it: booleans as booleans, tags as a jsonb array. */
export type LinkRow = LinkRowValues;

/**
 * PostgreSQL's text cannot hold U+0000, and a parameter holding it is an error, not a
 * miss; no stored value holds it either, so a lookup for one finds nothing.
 */
export const NUL = '\u0000';

export const fromRow = linkFromRow;
