// Type-7 quantiles by selection instead of sorting: Hoare's quickselect
// (median-of-three pivot) partially orders a copy of the values, so two
// percentiles of B resampled differences cost O(B) on average, not O(B log B).
// The result is identical to quantileSorted() on the sorted values.

/** Puts the k-th smallest value (0-based) at index k of `xs`, in place; returns it. */
export function selectInPlace(xs: Float64Array, k: number, from = 0, to = xs.length - 1): number {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three as the pivot value
    const x = xs[lo]!,
      y = xs[mid]!,
      z = xs[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break; // j < k < i: xs[k] equals the pivot
  }
  return xs[k]!;
}

/**
 * Type-7 quantile p in [0,1] of finite values (NaN for none). Reorders `xs`
 * in place; pass a copy to keep the original order.
 */
export function selectQuantile(xs: Float64Array, p: number): number {
  const n = xs.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = selectInPlace(xs, lo);
  if (frac === 0 || lo + 1 >= n) return a;
  // every value right of lo is >= a after selection: the next order statistic is their minimum
  let b = Infinity;
  for (let i = lo + 1; i < n; i++) if (xs[i]! < b) b = xs[i]!;
  return a + frac * (b - a);
}
