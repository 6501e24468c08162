// All report files from the gathered inputs: name -> content. Pure apart from
// the plotting adapter (deterministic: headless renderer, no clock).
import { differencesCsv, provenanceCsv, statisticsCsv } from './render-csv.js';
import { differencesPlotFile, plotFileName, renderReportMd } from './render-report-md.js';
import { renderReproduce } from './render-reproduce.js';
import { differencesSpec, ecdfSpec } from './plot-specs.js';
import { renderSvg } from './plot-adapter.js';
import { orderIds, type ReportInputs } from './report-inputs.js';

export async function renderReport(inp: ReportInputs): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const a = inp.analysis;
  const plots = inp.options.plots && a !== null;
  if (a && plots) {
    const cohorts = orderIds(a.cells.map((c) => c.cohort), Object.keys(inp.config.cohorts ?? {}));
    const paths = orderIds(a.cells.map((c) => c.path), Object.keys(inp.config.paths ?? {}));
    const states = orderIds(a.cells.map((c) => c.state), inp.config.design?.states ?? ['cold', 'warm']);
    for (const cohort of cohorts) {
      for (const state of states) {
        const values = inp.readyValues.filter((v) => v.cohort === cohort && v.state === state);
        files.set(plotFileName(cohort, state), await renderSvg(ecdfSpec(cohort, state, values, paths)));
      }
    }
    if (a.differences.some((d) => d.observedMs !== null)) files.set(differencesPlotFile, await renderSvg(differencesSpec(a.differences)));
  }
  files.set('report.md', renderReportMd(inp, plots));
  files.set('REPRODUCE.md', renderReproduce(inp));
  if (a) {
    files.set('statistics.csv', statisticsCsv(a));
    files.set('differences.csv', differencesCsv(a));
  }
  files.set('provenance.csv', provenanceCsv(inp));
  return new Map([...files.entries()].sort(([x], [y]) => (x < y ? -1 : 1)));
}
