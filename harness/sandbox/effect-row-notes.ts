// Pure: what the effect report is told about each row (report.rows.<row id>)
// and the source rows the pipeline lacks (report.missing). Kept in report:,
// never in effects:, so that a wording or a relation changes the report and
// never the key of the sampling stage.

/** Whether a row measures the source's optimisation itself, a stand-in for it, or another question. */
export type RowRelation = 'same' | 'proxy' | 'different';

/**
 * The source's own before → after figure for the row's measure (report.rows.<id>.source_figure), in the
 * row's unit, so the report sets it beside this run's; either side may be absent, and `text` says what the
 * source gives when it is no such pair.
 */
export interface SourceFigure {
  before: number | null;
  after: number | null;
  text: string | null;
}

export interface RowNote {
  relation: RowRelation;
  /** Why the relation holds (one sentence). */
  why: string | null;
  /** A negative control: expected to show no effect; an effect detected there fails it. */
  control: boolean;
  /** A row of the source's table (false: the pipeline's own, e.g. one side of two source rows); controls are none. */
  sourceRow: boolean;
  /** What it would take to measure the row (not-runnable rows) or to measure the source's question (proxies). */
  needs: string | null;
  /** The source's figure for the row, shown beside this run's in the summary; null when none is given. */
  sourceFigure: SourceFigure | null;
}

export interface MissingRow {
  id: string;
  name: string;
  system: string;
  source: string;
  /** Why the pipeline has no such row. */
  reason: string;
  /** What measuring it would need. */
  needs: string;
}

export interface EffectReportNotes {
  rows: Record<string, RowNote>;
  missing: MissingRow[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function sourceFigure(v: unknown): SourceFigure | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const figure = { before: num(o['before']), after: num(o['after']), text: str(o['text']) };
  return figure.before === null && figure.after === null && figure.text === null ? null : figure;
}

/** report.rows and report.missing with their defaults (relation same, not a control). */
export function effectReportNotes(reportSection: unknown): EffectReportNotes {
  const s = (reportSection && typeof reportSection === 'object' ? reportSection : {}) as Record<string, unknown>;
  const rows: Record<string, RowNote> = {};
  const raw = (s['rows'] && typeof s['rows'] === 'object' ? s['rows'] : {}) as Record<string, Record<string, unknown>>;
  for (const [id, v] of Object.entries(raw)) {
    const relation = v?.['relation'];
    rows[id] = {
      relation: relation === 'proxy' || relation === 'different' ? relation : 'same',
      why: str(v?.['why']),
      control: v?.['control'] === true,
      sourceRow: v?.['control'] !== true && v?.['source_row'] !== false,
      needs: str(v?.['needs']),
      sourceFigure: sourceFigure(v?.['source_figure']),
    };
  }
  const missing = (Array.isArray(s['missing']) ? s['missing'] : []).map((m: Record<string, unknown>) => ({
    id: String(m['id']),
    name: String(m['name']),
    system: String(m['system']),
    source: String(m['source'] ?? ''),
    reason: String(m['reason'] ?? ''),
    needs: String(m['needs'] ?? ''),
  }));
  return { rows, missing };
}

export const noteOf = (notes: EffectReportNotes, id: string): RowNote =>
  notes.rows[id] ?? { relation: 'same', why: null, control: false, sourceRow: true, needs: null, sourceFigure: null };
