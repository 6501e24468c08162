// The end of the effect-table report: report.notes after the method, then
// a provenance section. Kept apart from effect-table-md.ts, which the
// effects-sample stage also imports, so that wording here never makes a
// frozen sampling run stale.

export function effectReportEnd(md: string, notes: readonly string[], provenance: readonly string[]): string {
  const out = [md.replace(/\n*$/, '')];
  for (const n of notes) out.push('', n.trim());
  if (provenance.length) out.push('', '## Provenance', '', ...provenance.map((l) => `- ${l}`));
  return out.join('\n') + '\n';
}
