// `pipeline history --import FOLDER`: files an existing published report
// folder as an archived run of its experiment (reports/<experiment>/runs/).
// The experiment is the `experiment` column of its samples.csv, else the
// folder's name. Its key inputs and session fingerprints were not recorded
// (stages: null), so history attributes a change next to it from its
// provenance.csv (binaries, images, host rows) only.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { parseCsvTable } from '../compare/csv-table.js';
import { readPublishedReport } from '../compare/read-published-report.js';
import { archiveRun, type ArchiveOutcome } from './archive-run.js';
import { RUNS_DIR } from './published-run.js';

export function experimentOf(folder: string): string {
  const samples = join(folder, 'samples.csv');
  if (existsSync(samples)) {
    const first = parseCsvTable(readFileSync(samples, 'utf8')).rows[0]?.['experiment'];
    if (first) return first;
  }
  return basename(resolve(folder));
}

export function importReportFolder(folder: string, projectDir: string, label: string | null): ArchiveOutcome & { experiment: string } {
  readPublishedReport(folder); // a UserError naming the folder, file or column when it is not a report
  if (existsSync(join(folder, 'run.json')))
    throw new UserError('already an archived run', { file: folder }, 'import a published report folder such as reports/lazy-startup/');
  const experiment = experimentOf(folder);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(experiment))
    throw new UserError(
      `experiment name '${experiment}' is not a folder name`,
      { file: join(folder, 'samples.csv') },
      'the experiment column names reports/<experiment>/',
    );
  const runsDir = join(projectDir, 'reports', experiment, RUNS_DIR);
  const outcome = archiveRun({ reportDir: folder, runsDir, experiment, source: 'imported', label, stages: null, sessions: [] });
  return { ...outcome, experiment };
}
