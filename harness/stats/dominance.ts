// Dominance: every observation of one path precedes (is strictly smaller than)
// every observation of the other within a cell. Ties or any overlap: 'overlap'.

export type Dominance = 'a-precedes-b' | 'b-precedes-a' | 'overlap' | 'empty';

export function dominanceSorted(aSorted: readonly number[], bSorted: readonly number[]): Dominance {
  if (aSorted.length === 0 || bSorted.length === 0) return 'empty';
  if (aSorted[aSorted.length - 1]! < bSorted[0]!) return 'a-precedes-b';
  if (bSorted[bSorted.length - 1]! < aSorted[0]!) return 'b-precedes-a';
  return 'overlap';
}
