// report.source (schemas/report.schema.json): which of this run's paths stand
// in for the source's, and which source findings are declared not comparable.
// Read by the analysis, which judges the source findings (analysis/source-verdicts.ts).
/** report.source: paths standing in for the source's, and findings declared not comparable (with the reason). */
export interface SourceReading {
  standIns: Record<string, string>;
  notComparable: Record<string, string>;
}

const strings = (v: unknown): Record<string, string> =>
  v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === 'string') as [string, string][])
    : {};

/** report.source as validated by the schema. */
export function sourceReading(raw: unknown): SourceReading {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return { standIns: strings(r['stand_ins']), notComparable: strings(r['not_comparable']) };
}
