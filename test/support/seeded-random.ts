/** mulberry32: a small, well-mixed 32-bit PRNG; deterministic for a given seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A Math.random stand-in over mulberry32: [0, 1), deterministic for a given seed. */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 2 ** 32;
}
