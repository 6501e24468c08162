// The launch report's document context (pure): what each section of
// launch-report-document.ts reads (the inputs, the analysis, formatters, the
// cohorts, paths and states in their order, the source verdicts, the plots
// not yet placed), and the figure placement they share.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { Formatters } from './conclusions.js';
import type { ReportInputs } from './report-inputs.js';
import type { Plot } from './plot-specs.js';
import type { FindingVerdict } from './source-findings.js';
import { shellLine } from '../process/shell-quote.js';
import type { RunOperatingCharacteristics } from '../comparison/operating-characteristics.js';
import { figure as figureBlock, type Block } from '../document/document-model.js';

/** An argv as a shell would need it typed: words with spaces or quotes are single-quoted. */
export const code = (argv: readonly string[]): string => '`' + shellLine(argv).replace(/`/g, "'") + '`';

export interface Ctx {
  inp: ReportInputs;
  a: AnalysisResult;
  f: Formatters;
  ms: (v: number) => string;
  cohorts: string[];
  paths: string[];
  states: string[];
  verdicts: FindingVerdict[];
  /** Plots not yet placed: whatever is left goes to "More plots". */
  plots: Map<string, Plot>;
  /** report.paths.<id>.stack, null when not given. */
  stackOf: (path: string) => string | null;
  /** The design's operating characteristics on this run's own profiles (run-operating.ts); null without formal launches. */
  operating: RunOperatingCharacteristics | null;
}

export function takeFigure(c: Ctx, file: string): Block | null {
  const p = c.plots.get(file);
  if (!p) return null;
  c.plots.delete(file);
  return figureBlock(p.file, p.caption);
}

/** Sessions and formal rounds per session as the data has them (an import may differ from the pipeline's design). */
export function designOf(a: AnalysisResult): { sessions: number; rounds: number } {
  // With design.confirm, the planned sessions; the cells the confirmation session visited have one more.
  const planned = a.confirmation?.plannedSessions;
  const cells = planned ? a.cells.filter((x) => x.sessions.length <= planned) : a.cells;
  if (planned && cells.length === 0) return { sessions: planned, rounds: Math.round(Math.max(0, ...a.cells.map((x) => x.launches)) / (planned + 1)) };
  const sessions = planned ?? Math.max(1, ...a.cells.map((x) => x.sessions.length));
  const launches = Math.max(0, ...cells.map((x) => x.launches));
  return { sessions, rounds: Math.round(launches / sessions) };
}
