/**
 * Zipf(s) over [0, n): most picks land on the first few indexes. Shared by `hop bench`
 * (its hot scenario) and `npm run bench` (bench/support/zipf.ts re-exports it).
 */
export function makeZipf(n: number, s: number): () => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cdf[k] = total += 1 / Math.pow(k + 1, s);
  for (let k = 0; k < n; k++) (cdf[k] as number) /= total;
  return () => {
    const u = Math.random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
