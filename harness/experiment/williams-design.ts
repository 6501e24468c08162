// Pure: the rows of a Williams design for n arms (0..n-1). Every arm stands
// equally often in each position, and every ordered pair of distinct arms
// stands next to each other (a right before b) equally often: n rows for an
// even n (each pair once), 2n rows for an odd n (the square and its mirror,
// each pair twice). A design balanced this way for first-order carryover
// needs its rounds in multiples of the row count; see balanced-order.ts.

/** The rows of the design: n of them for an even n, 2n for an odd n (one row for n = 1). */
export function williamsRows(n: number): number[][] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`a Williams design needs a whole number of arms, got ${n}`);
  if (n === 1) return [[0]];
  // First row 0, 1, n-1, 2, n-2, …; every other row adds its index modulo n.
  const first: number[] = [0];
  for (let lo = 1, hi = n - 1; first.length < n;) {
    first.push(lo++);
    if (first.length < n) first.push(hi--);
  }
  const square = Array.from({ length: n }, (_, r) => first.map((x) => (x + r) % n));
  return n % 2 === 0 ? square : [...square, ...square.map((row) => [...row].reverse())];
}
