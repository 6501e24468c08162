// All report files from the gathered inputs: name -> content. Pure apart from
// the plotting adapter (deterministic: headless renderer, no clock).
import { differencesCsv, sessionsCsv, provenanceCsv, statisticsCsv } from './render-csv.js';
import { renderReportMd } from './render-report-md.js';
import { renderReproduce } from './render-reproduce.js';
import { renderSvg } from './plot-adapter.js';
import { reportPlots } from './report-plots.js';
import { samplesCsv, samplesCsvFile } from './samples-csv.js';
import type { ReportInputs } from './report-inputs.js';
import { renderIndexHtml, type PageLibraries } from './render-index-html.js';
import { diskCsv } from './disk-section.js';

export async function renderReport(inp: ReportInputs, libraries: PageLibraries | null = null): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const a = inp.analysis;
  const plots = reportPlots(inp);
  for (const p of plots) files.set(p.file, await renderSvg(p.spec));
  const md = renderReportMd(inp, plots);
  files.set('report.md', md);
  files.set('REPRODUCE.md', renderReproduce(inp));
  if (a) {
    files.set('statistics.csv', statisticsCsv(a));
    files.set('differences.csv', differencesCsv(a));
    files.set('sessions.csv', sessionsCsv(a));
  }
  if (inp.launches.length) files.set(samplesCsvFile, samplesCsv(inp.launches));
  const disk = diskCsv(inp.sessions);
  if (disk) files.set('disk.csv', disk);
  files.set('provenance.csv', provenanceCsv(inp));
  if (libraries) files.set('index.html', renderIndexHtml(md, plots, libraries));
  return new Map([...files.entries()].sort(([x], [y]) => (x < y ? -1 : 1)));
}
