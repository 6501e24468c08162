// Pure: KEY=NUMBER lines a workload or a setup command prints. The last line
// naming a key wins; other lines are ignored.
export function printedValues(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+(?:\.\d+)?)\s*$/.exec(line.trim());
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
