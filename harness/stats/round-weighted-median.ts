// The pooled median of a bootstrap resample without materializing it: the
// values of one path are sorted once, each tagged with the index of its
// round; a resample is how often each round was drawn (counts), and the
// type-7 median of the pooled values is found by one walk up the sorted
// values with those weights. O(values) per resample, no sorting, no
// allocation.

/** Values of one path over a list of rounds, sorted ascending, with their round index. */
export interface RoundIndexed {
  values: Float64Array;
  round: Int32Array;
  /** How many values of this path each round holds. */
  perRound: Int32Array;
}

export function indexRounds(valuesOfRound: readonly (readonly number[])[]): RoundIndexed {
  const perRound = new Int32Array(valuesOfRound.length);
  let n = 0;
  valuesOfRound.forEach((vs, i) => {
    perRound[i] = vs.length;
    n += vs.length;
  });
  const flatValues = new Float64Array(n);
  const flatRound = new Int32Array(n);
  let k = 0;
  valuesOfRound.forEach((vs, i) => {
    for (const v of vs) {
      flatValues[k] = v;
      flatRound[k++] = i;
    }
  });
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => flatValues[x]! - flatValues[y]! || flatRound[x]! - flatRound[y]!);
  return {
    values: Float64Array.from(order, (i) => flatValues[i]!),
    round: Int32Array.from(order, (i) => flatRound[i]!),
    perRound,
  };
}

/** Type-7 median of the pooled values of the rounds weighted by `counts` (total weight m > 0). */
export function roundWeightedMedian(ix: RoundIndexed, counts: Int32Array, m: number): number {
  const h = (m - 1) * 0.5;
  const lo = Math.floor(h);
  const frac = h - lo;
  const values = ix.values;
  const round = ix.round;
  let cum = 0;
  let i = 0;
  const len = values.length;
  // Rounds drawn 0 times add nothing; the walk stops on a value of a drawn round.
  for (; i < len; i++) {
    cum += counts[round[i]!]!;
    if (cum > lo) break;
  }
  const a = values[i]!;
  if (frac === 0) return a;
  if (cum > lo + 1) return a; // the next order statistic is a copy of the same value
  for (i++; i < len; i++) if (counts[round[i]!]! > 0) break;
  return a + frac * (values[i]! - a);
}
