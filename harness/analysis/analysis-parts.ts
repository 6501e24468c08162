// Pure: the expensive, independent parts of the analysis, the bootstraps, as
// numbered tasks, so they can be computed in shares (one share per worker
// thread, analyze-in-workers.ts) and put back together in task order. A task
// is one cell and metric's carryover diagnostics, or one difference (on all
// sessions, or on the planned sessions alone when a confirmation session ran).
// Every task draws from its own seed, so a task's numbers do not depend on
// which share computed it, nor on how many shares there are.
import { carryoverOf, type CellCarryover } from './carryover-diagnostics.js';
import { cellKey, metricValue, resolveComparisons, rowsByCell } from './difference-results.js';
import { differenceResultsShare } from './difference-results.js';
import type { AnalysisRules } from '../config/analysis-rules.js';
import type { ConfirmationInput, DifferenceResult } from './analysis-result.js';
import type { SampleData } from './sample-data.js';

export interface AnalysisParts {
  /** Per data.cells x rules.metrics, in that order. */
  carryover: CellCarryover[];
  differences: DifferenceResult[];
  /** The differences on the planned sessions alone; null without a confirmation session. */
  planned: DifferenceResult[] | null;
}

/** Tasks numbered `part`, `part + parts`, ... of each list: [task number, result]. */
export interface PartsShare {
  carryover: [number, CellCarryover][];
  differences: [number, DifferenceResult][];
  planned: [number, DifferenceResult][] | null;
}

const allPaths = (data: Pick<SampleData, 'cells'>): string[] => [...new Set(data.cells.map((c) => c.path))].sort();

export function plannedValues(data: SampleData, confirmation: ConfirmationInput | null): SampleData['values'] | null {
  return confirmation?.session != null ? data.values.filter((r) => r.session <= confirmation.plannedSessions) : null;
}

export function partsShare(data: SampleData, rules: AnalysisRules, confirmation: ConfirmationInput | null, part: number, parts: number): PartsShare {
  const byCell = rowsByCell(data.values);
  const carryover: [number, CellCarryover][] = [];
  let task = 0;
  for (const c of data.cells) {
    for (const metric of rules.metrics) {
      if (task % parts === part) {
        const rows = byCell.get(cellKey(c.cohort, c.path, c.state)) ?? [];
        carryover.push([task, carryoverOf(rows, metricValue[metric], data.positions[c.cohort] ?? 0, rules, [c.cohort, c.path, c.state, metric])]);
      }
      task++;
    }
  }
  const comparisons = resolveComparisons(rules.comparisons, allPaths(data));
  const planned = plannedValues(data, confirmation);
  return {
    carryover,
    differences: differenceResultsShare(data, rules, comparisons, part, parts, true),
    planned: planned ? differenceResultsShare({ cells: data.cells, values: planned }, rules, comparisons, part, parts) : null,
  };
}

/** The shares 0 .. n-1 put back into task order. */
export function joinShares(shares: readonly PartsShare[]): AnalysisParts {
  const join = <T>(lists: readonly [number, T][][]): T[] =>
    lists
      .flat()
      .sort((x, y) => x[0] - y[0])
      .map((x) => x[1]);
  const planned = shares.map((s) => s.planned);
  return {
    carryover: join(shares.map((s) => s.carryover)),
    differences: join(shares.map((s) => s.differences)),
    planned: planned.every((p) => p === null) ? null : join(planned.map((p) => p ?? [])),
  };
}

/** Every task in this thread. */
export function analysisParts(data: SampleData, rules: AnalysisRules, confirmation: ConfirmationInput | null): AnalysisParts {
  return joinShares([partsShare(data, rules, confirmation, 0, 1)]);
}
