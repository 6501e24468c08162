// Pure: the closest of a set of names to a misspelt one, by edit distance
// (Levenshtein), when close enough to be a typo: the "did you mean" of every
// config error that names an unknown key, placeholder or id.

export function closest(name: string, known: readonly string[]): string | null {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const cur = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
    }
    return row[b.length]!;
  };
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(name, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(name.length / 4)) ? best : null;
}
