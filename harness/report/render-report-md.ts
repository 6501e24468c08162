// report.md: the launch report's document (launch-report-document.ts) as
// Markdown. Pure: the same inputs give the same bytes.
import type { Plot } from './plot-specs.js';
import type { ReportInputs } from './report-inputs.js';
import { launchReportDocument } from './launch-report-document.js';
import { renderMarkdown } from '../document/render-markdown.js';

export function renderReportMd(inp: ReportInputs, plots: readonly Plot[]): string {
  return renderMarkdown(launchReportDocument(inp, plots));
}
