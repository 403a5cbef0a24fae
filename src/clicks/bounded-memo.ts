/**
 * The memo moved to src/domain/ so that smart-link matching (issue 21, ADR 0108) can share
 * it; clicks/ keeps this name for its importers.
 */
export { BoundedMemo } from '../domain/bounded-memo.js';
