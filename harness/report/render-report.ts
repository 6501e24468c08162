// All report files from the gathered inputs: name -> content. Pure apart from
// the plotting adapter (deterministic: headless renderer, no clock).
import { differencesCsv, phasesCsv, sessionsCsv, provenanceCsv, statisticsCsv } from './render-csv.js';
import { launchReportDocument } from './launch-report-document.js';
import { renderMarkdown } from '../document/render-markdown.js';
import { renderReproduce } from './render-reproduce.js';
import { renderSvg } from '../publish/plot-adapter.js';
import { reportPlots } from './report-plots.js';
import { samplesCsv, samplesCsvFile } from '../publish/samples-csv.js';
import type { ReportInputs } from './report-inputs.js';
import { renderIndexHtml, type PageLibraries } from '../publish/render-index-html.js';
import { diskCsv } from './disk-section.js';

export async function renderReport(inp: ReportInputs, libraries: PageLibraries | null = null): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const a = inp.analysis;
  const plots = reportPlots(inp);
  for (const p of plots) files.set(p.file, await renderSvg(p.spec));
  const doc = launchReportDocument(inp, plots);
  files.set('report.md', renderMarkdown(doc));
  files.set('REPRODUCE.md', renderReproduce(inp));
  if (a) {
    files.set('statistics.csv', statisticsCsv(a));
    files.set('differences.csv', differencesCsv(a));
    files.set('sessions.csv', sessionsCsv(a));
    const phases = phasesCsv(a);
    if (phases) files.set('phases.csv', phases);
  }
  if (inp.launches.length) files.set(samplesCsvFile, samplesCsv(inp.launches));
  const disk = diskCsv(inp.sessions);
  if (disk) files.set('disk.csv', disk);
  files.set('provenance.csv', provenanceCsv(inp));
  if (libraries) files.set('index.html', renderIndexHtml(doc, plots, libraries));
  return new Map([...files.entries()].sort(([x], [y]) => (x < y ? -1 : 1)));
}
