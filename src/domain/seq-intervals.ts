/**
 * A set of integers kept as sorted, disjoint, non-adjacent closed intervals. One process's
 * clicks are numbered 0, 1, 2 … and folded roughly in order, so the set of numbers already
 * folded stays a handful of intervals however many clicks it holds: de-duplication by event
 * id without a row per event.
 */
export type SeqIntervals = readonly (readonly [number, number])[];

/** Index of the first interval that ends at or after `seq` (intervals.length if none). */
function firstEndingFrom(intervals: SeqIntervals, seq: number): number {
  let low = 0;
  let high = intervals.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const interval = intervals[middle];
    if (interval !== undefined && interval[1] < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether any of `from`..`to` is in the set. */
export function overlaps(intervals: SeqIntervals, from: number, to: number): boolean {
  const interval = intervals[firstEndingFrom(intervals, from)];
  return interval !== undefined && interval[0] <= to;
}

export function hasSeq(intervals: SeqIntervals, seq: number): boolean {
  return overlaps(intervals, seq, seq);
}

/**
 * Adds `from`..`to`, none of which is in the set yet (check `overlaps` first), to
 * `intervals` in place, joining the neighbours it touches. In-order arrivals extend the
 * last interval.
 */
export function insertRange(intervals: [number, number][], from: number, to: number): void {
  const at = firstEndingFrom(intervals, from);
  const before = intervals[at - 1];
  const after = intervals[at];
  const joinsBefore = before !== undefined && before[1] + 1 === from;
  const joinsAfter = after !== undefined && after[0] - 1 === to;
  if (joinsBefore && joinsAfter) {
    before[1] = after[1];
    intervals.splice(at, 1);
  } else if (joinsBefore) {
    before[1] = to;
  } else if (joinsAfter) {
    after[0] = from;
  } else {
    intervals.splice(at, 0, [from, to]);
  }
}
