/**
 * Big-volume checks come in two sizes: `npm test` runs a smaller one that still fails when
 * the property breaks, and `npm run test:scale` (test/scale/, TEST_SCALE=full) runs the
 * full size. The property asserted is the same at both sizes; only the count changes.
 */
export const FULL_SCALE = process.env['TEST_SCALE'] === 'full';

/** `small` under `npm test`, `full` under `npm run test:scale`. */
export function volume(small: number, full: number): number {
  return FULL_SCALE ? full : small;
}
