// analysis.practical (schemas/analysis.schema.json): the margin below which a
// difference is practically nothing, read by the comparison verdicts
// (analysis/comparison-verdict.ts) and the effect table's floor.
export interface PracticalMargin {
  /** Smallest |a / b - 1| that matters (0.05 = 5%). */
  relative: number;
  /** Smallest |a - b| in ms that matters; 0 for none. */
  absoluteMs: number;
}

/** Defaults of analysis.practical (schemas/analysis.schema.json). */
export const defaultPracticalMargin: PracticalMargin = { relative: 0.05, absoluteMs: 10 };

/** analysis.practical with its defaults applied. */
export function practicalMargin(section: unknown): PracticalMargin {
  const r = (section && typeof section === 'object' ? section : {}) as Record<string, unknown>;
  const num = (k: string, d: number): number => (typeof r[k] === 'number' && Number.isFinite(r[k]) && (r[k] as number) >= 0 ? (r[k] as number) : d);
  return { relative: num('min_ratio_change', defaultPracticalMargin.relative), absoluteMs: num('min_ms', defaultPracticalMargin.absoluteMs) };
}
