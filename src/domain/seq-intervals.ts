/**
 * A set of integers kept as sorted, disjoint, non-adjacent closed intervals. One process's
 * clicks are numbered 0, 1, 2 … and folded roughly in order, so the set of numbers already
 * folded stays a handful of intervals however many clicks it holds: de-duplication by event
 * id without a row per event.
 */
export type SeqIntervals = readonly (readonly [number, number])[];

/** Whether `seq` is in the set (binary search). */
export function hasSeq(intervals: SeqIntervals, seq: number): boolean {
  let low = 0;
  let high = intervals.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const interval = intervals[middle];
    if (interval === undefined) return false;
    const [from, to] = interval;
    if (seq < from) high = middle - 1;
    else if (seq > to) low = middle + 1;
    else return true;
  }
  return false;
}

/** The set with `seqs` added (any order, duplicates allowed), merged back into intervals. */
export function addSeqs(intervals: SeqIntervals, seqs: readonly number[]): SeqIntervals {
  if (seqs.length === 0) return intervals;
  // A typed array sorts numbers natively; a batch is usually one run already.
  const sorted = Float64Array.from(seqs).sort();
  const runs: [number, number][] = [];
  for (const seq of sorted) {
    const last = runs[runs.length - 1];
    if (last !== undefined && seq <= last[1] + 1) {
      if (seq > last[1]) last[1] = seq;
    } else {
      runs.push([seq, seq]);
    }
  }
  const all = [...intervals.map(([from, to]): [number, number] => [from, to]), ...runs];
  all.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && from <= last[1] + 1) {
      if (to > last[1]) last[1] = to;
    } else {
      merged.push([from, to]);
    }
  }
  return merged;
}
