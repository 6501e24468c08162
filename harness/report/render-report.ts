// All report files of an experiment on the default report stage, from the
// gathered inputs: the launch document, its plots, the CSVs and REPRODUCE.md,
// through the kit's one skeleton (publish/publish.ts). Pure apart from the
// plotting adapter (deterministic: headless renderer, no clock).
import { differencesCsv, phasesCsv, sessionsCsv, provenanceCsv, statisticsCsv } from './render-csv.js';
import { launchReportDocument } from './launch-report-document.js';
import { reproduceDocumentOf } from './render-reproduce.js';
import { reportPlots } from './report-plots.js';
import { samplesCsv, samplesCsvFile } from '../publish/samples-csv.js';
import type { ReportInputs } from './report-inputs.js';
import type { PageLibraries } from '../publish/render-index-html.js';
import { diskCsv } from '../publish/disk-section.js';
import { varianceCsv } from '../analysis/variance-csv.js';
import { publishedFiles, type Publication } from '../publish/publish.js';

/** What the default report stage publishes, for the kit to write. */
export function launchPublication(inp: ReportInputs): Publication {
  const a = inp.analysis;
  const plots = reportPlots(inp);
  const csvs = new Map<string, string>();
  if (a) {
    csvs.set('statistics.csv', statisticsCsv(a));
    csvs.set('differences.csv', differencesCsv(a));
    csvs.set('sessions.csv', sessionsCsv(a));
    const phases = phasesCsv(a);
    if (phases) csvs.set('phases.csv', phases);
    const variance = varianceCsv(a); // the variance components over replicate runs, when pooled (issue 28)
    if (variance) csvs.set('variance.csv', variance);
  }
  if (inp.launches.length) csvs.set(samplesCsvFile, samplesCsv(inp.launches));
  const disk = diskCsv(inp.sessions);
  if (disk) csvs.set('disk.csv', disk);
  csvs.set('provenance.csv', provenanceCsv(inp));
  return { doc: launchReportDocument(inp, plots), plots, csvs, reproduce: reproduceDocumentOf(inp) };
}

export async function renderReport(inp: ReportInputs, libraries: PageLibraries | null = null): Promise<Map<string, string>> {
  return (await publishedFiles(launchPublication(inp), libraries)) as Map<string, string>;
}
