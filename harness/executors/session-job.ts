// One sampling session as a job on another host (a Slurm node): everything
// the job needs is in a spec file in the shared data folder; the job rebuilds
// the stage's arm adapter from its kind, starts the stage's services from
// their prepared data on its node when the adapter uses them, runs the
// session into a DuckDB file of its own (never a shared writer), writes its
// record and stops its services. The runner merges the session files
// afterwards. One path for every experiment (experiment-session-job.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import type { SessionRecord } from '../contract/exchange-files.js';
import { runExperimentSessionJob } from './experiment-session-job.js';
import { sessionJobFiles, type SessionJobSpec } from './session-job-spec.js';

export { sessionJobFiles, sessionJobKind, writeSessionJobSpec, type SessionJobSpec } from './session-job-spec.js';

/** Runs the session a spec file describes, here (on the node the job landed on). */
export async function runSessionJob(specFile: string, log: (line: string) => void): Promise<SessionRecord> {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as SessionJobSpec;
  const files = sessionJobFiles(spec.workDir, spec.session, spec.attempt);
  const record = await runExperimentSessionJob(spec, files.journal, log);
  writeFileSync(files.record, JSON.stringify(record, null, 2) + '\n');
  return record;
}
