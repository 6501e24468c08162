// Pure: what the effect report is told about each row (report.rows.<row id>)
// and the source rows the pipeline lacks (report.missing). Kept in report:,
// never in effects:, so that a wording or a relation changes the report and
// never the key of the sampling stage.

/** Whether a row measures the source's optimisation itself, a stand-in for it, or another question. */
export type RowRelation = 'same' | 'proxy' | 'different';

export interface RowNote {
  relation: RowRelation;
  /** Why the relation holds (one sentence). */
  why: string | null;
  /** A negative control: expected to show no effect; an effect detected there fails it. */
  control: boolean;
  /** What it would take to measure the row (not-runnable rows) or to measure the source's question (proxies). */
  needs: string | null;
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
      needs: str(v?.['needs']),
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

export const noteOf = (notes: EffectReportNotes, id: string): RowNote => notes.rows[id] ?? { relation: 'same', why: null, control: false, needs: null };
