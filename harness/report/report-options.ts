// The `report:` section of pipeline.yaml (schemas/report.schema.json holds the
// keys, descriptions and defaults; they are applied here again for tests).

export interface ReportOptions {
  /** Report title; default: experiment.question. */
  title: string | null;
  /** Render the SVG plots. */
  plots: boolean;
  /** Decimals of milliseconds in report.md (CSV files keep 3). */
  msDecimals: number;
  /** Decimals of seconds (preparation costs) in report.md. */
  secondsDecimals: number;
  /** Decimals of percentages in report.md. */
  percentDecimals: number;
  /** Extra paragraphs appended to Data and analysis (what a reader must know that the data cannot say). */
  notes: string[];
}

export function reportOptions(sectionIn: unknown): ReportOptions {
  const s = (sectionIn && typeof sectionIn === 'object' ? sectionIn : {}) as Record<string, unknown>;
  const int = (k: string, d: number): number => (typeof s[k] === 'number' ? Math.max(0, Math.min(6, Math.floor(s[k] as number))) : d);
  return {
    title: typeof s['title'] === 'string' && s['title'] !== '' ? (s['title'] as string) : null,
    plots: s['plots'] !== false,
    msDecimals: int('ms_decimals', 1),
    secondsDecimals: int('seconds_decimals', 3),
    percentDecimals: int('percent_decimals', 1),
    notes: Array.isArray(s['notes']) ? (s['notes'] as unknown[]).map(String) : [],
  };
}
