// Which plots a report has, in the order the page shows them (pure).
import { bytesPlot, ecdfPlot, roundsPlot, type Plot } from './plot-specs.js';
import { breakdownPlot, differencesForestPlot, modesPlot, positionPlot, sessionMediansPlot } from './launch-plots.js';
import { judgeFindings, sourceReference } from './source-findings.js';
import { launchPoints } from './launch-points.js';
import { orderIds, type ReportInputs } from './report-inputs.js';

export interface ReportOrder {
  cohorts: string[];
  paths: string[];
  states: string[];
}

export function reportOrder(inp: ReportInputs): ReportOrder {
  const a = inp.analysis;
  const cells = a?.cells ?? [];
  const seen = (k: 'cohort' | 'path' | 'state'): string[] => [...cells.map((c) => c[k]), ...inp.launches.map((r) => String(r[k]))];
  return {
    cohorts: orderIds(seen('cohort'), Object.keys(inp.config.cohorts ?? {})),
    paths: orderIds(seen('path'), Object.keys(inp.config.paths ?? {})),
    states: orderIds(seen('state'), inp.config.design?.states ?? ['cold', 'warm']),
  };
}

/** Every plot the data supports; a plot without data is left out, never drawn empty. */
export function reportPlots(inp: ReportInputs): Plot[] {
  if (!inp.options.plots) return [];
  const o = reportOrder(inp);
  const points = launchPoints(inp.launches);
  const a = inp.analysis;
  const verdicts = judgeFindings(sourceReference(inp.config.experiment.reference, inp.options.source), a);
  const plots: (Plot | null)[] = [
    a ? differencesForestPlot(a, verdicts, o.cohorts, o.states) : null,
    ...o.cohorts.map((c) => ecdfPlot(c, points, o.paths, o.states)),
    a ? modesPlot(a, points) : null,
    a ? breakdownPlot(a, o.cohorts, o.paths) : null,
    positionPlot(points, o.cohorts, o.paths),
    roundsPlot(points, o.cohorts, o.paths),
    a ? sessionMediansPlot(a, o.cohorts, o.states, o.paths) : null,
    bytesPlot(points, o.cohorts, o.paths, o.states),
  ];
  return plots.filter((p): p is Plot => p !== null);
}
