// report.source (schemas/report.schema.json): which of this run's paths stand
// in for the source's, which source findings are declared not comparable, and
// which paths run on another runtime than the source's path of that name (one
// rule for all findings naming them: a P50 of such a path is not comparable,
// a difference naming it is judged in direction only, its size not compared).
// Read by the analysis, which judges the source findings (analysis/source-verdicts.ts).
/** report.source: paths standing in for the source's, and findings declared not comparable (with the reason). */
export interface SourceReading {
  standIns: Record<string, string>;
  notComparable: Record<string, string>;
  /** Why the stand-ins stand in (report.source.stand_in_why); null when not said. */
  standInWhy?: string | null;
  /** Path -> how its runtime differs from the source's path of that name. */
  runtimeDiffers?: Record<string, string>;
}

const strings = (v: unknown): Record<string, string> =>
  v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === 'string') as [string, string][])
    : {};

/** report.source as validated by the schema. */
export function sourceReading(raw: unknown): SourceReading {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    standIns: strings(r['stand_ins']),
    notComparable: strings(r['not_comparable']),
    runtimeDiffers: strings(r['runtime_differs']),
    standInWhy: typeof r['stand_in_why'] === 'string' ? r['stand_in_why'].trim() : null,
  };
}
