// Ascending numeric sort into a new plain array (typed-array sort is numeric
// and fast; NaN never enters: callers pass finite values only).

export function sortedAscending(values: readonly number[] | Float64Array): number[] {
  return Array.from(Float64Array.from(values).sort());
}
