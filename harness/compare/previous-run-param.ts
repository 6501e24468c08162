// A report stage's `with.previous_run` (every experiment's report stage,
// previous-run-section.ts): the archived run folder it names, relative to the
// pipeline file, read as `pipeline compare` reads a folder, and the document
// with "Against the previous run" added (the files that join the stage's key:
// previous-run-files.ts). A folder without differences.csv is the user's error, named
// with the file, line and key.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import { parseYamlSource, positionOf } from '../config/yaml-source.js';
import { UserError } from '../errors.js';
import type { ReportDocument } from '../document/document-model.js';
import { againstPreviousRun, previousRunSections, withPreviousRun } from './previous-run-section.js';
import { readPublishedReport } from './read-published-report.js';
import { givenPreviousRun } from './previous-run-files.js';
import { samplesCsvCanary, type RunCanary } from './run-canary.js';

/** The stage's document with "Against the previous run" when with.previous_run names a run; the document as it is otherwise. */
export function withPreviousRunOf(
  ctx: Pick<StageContext, 'params' | 'pipelineDir' | 'pipelineFile' | 'config' | 'id'>,
  doc: ReportDocument,
  csvs: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
  canary: RunCanary | null,
): ReportDocument {
  const given = givenPreviousRun(ctx.params);
  if (!given) return doc;
  const folder = resolve(ctx.pipelineDir, given);
  if (!existsSync(join(folder, 'differences.csv'))) {
    const key = `stages.${ctx.id}.with.previous_run`;
    const index = ctx.config.stages.findIndex((s) => s.id === ctx.id);
    const at = positionOf(parseYamlSource(ctx.pipelineFile, readFileSync(ctx.pipelineFile, 'utf8')), ['stages', index, 'with', 'previous_run']);
    throw new UserError(
      `previous_run ${given} holds no differences.csv`,
      { file: relative(process.cwd(), ctx.pipelineFile) || ctx.pipelineFile, line: at.line, col: at.col, key },
      'name an archived run folder of this experiment (reports/<experiment>/runs/<date>-<digest>)',
    );
  }
  const current = `reports/${ctx.config.experiment.name}`;
  const texts = csvs instanceof Map ? csvs : new Map(Object.entries(csvs));
  // an analysis that keeps no canary (commit-diff, sandbox-effects): the one its samples.csv's canary launches give
  const own = canary ?? (texts.has('samples.csv') ? samplesCsvCanary(texts.get('samples.csv')!) : null);
  const r = againstPreviousRun(readPublishedReport(folder), { folder: current, csvs: texts, canary: own });
  return withPreviousRun(doc, previousRunSections(basename(folder), r, given, current));
}
