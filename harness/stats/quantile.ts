// The one quantile definition used everywhere: linear interpolation between
// order statistics, Hyndman & Fan type 7 (R's default, NumPy's 'linear').

/** Quantile p in [0,1] of an ascending-sorted array. NaN for an empty array. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sorted[0]!;
  if (p >= 1) return sorted[n - 1]!;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, n - 1)]!;
  return a + frac * (b - a);
}

export function quantile(values: readonly number[], p: number): number {
  return quantileSorted(
    [...values].sort((x, y) => x - y),
    p,
  );
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
