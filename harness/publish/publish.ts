// The one skeleton every report stage ends with: the document as report.md
// and index.html, each plot as SVG, the CSVs, REPRODUCE.md (a document too)
// and any file copied as it is, written into the stage's outputs. The engine
// then publishes that folder to reports/<experiment.name>/.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportDocument } from '../document/document-model.js';
import { renderMarkdown } from '../document/render-markdown.js';
import type { Plot } from './plot.js';
import { renderSvg } from './plot-adapter.js';
import { renderIndexHtml, type PageLibraries } from './render-index-html.js';

export interface Publication {
  /** The report: report.md, and index.html when the page libraries are given. */
  doc: ReportDocument;
  plots: readonly Plot[];
  /** CSV files by name (samples.csv, differences.csv, statistics.csv, the experiment's own). */
  csvs: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** REPRODUCE.md, rendered from the document model like the report. */
  reproduce: ReportDocument;
  /** Files published as they are (an upstream JSON), by name. */
  files?: ReadonlyMap<string, string | Buffer>;
}

const entries = (m: Publication['csvs']): [string, string][] => (m instanceof Map ? [...m.entries()] : Object.entries(m));

/** Every published file, name -> content, in name order (pure apart from the plotting adapter, which is deterministic). */
export async function publishedFiles(p: Publication, libraries: PageLibraries | null): Promise<Map<string, string | Buffer>> {
  const files = new Map<string, string | Buffer>();
  for (const plot of p.plots) files.set(plot.file, await renderSvg(plot.spec));
  for (const [name, text] of entries(p.csvs)) files.set(name, text);
  for (const [name, content] of p.files ?? []) files.set(name, content);
  files.set('report.md', renderMarkdown(p.doc));
  files.set('REPRODUCE.md', renderMarkdown(p.reproduce));
  if (libraries) files.set('index.html', renderIndexHtml(p.doc, p.plots, libraries));
  return new Map([...files.entries()].sort(([x], [y]) => (x < y ? -1 : 1)));
}

/** Writes every file of the publication into the stage's outputs and logs their names. */
export async function publish(ctx: { outputDir: string; log: (line: string) => void }, p: Publication): Promise<string[]> {
  const { readPageLibraries } = await import('./page-libraries.js');
  const files = await publishedFiles(p, await readPageLibraries());
  for (const [name, content] of files) await writeFile(join(ctx.outputDir, name), content);
  ctx.log([...files.keys()].join(', '));
  return [...files.keys()];
}
