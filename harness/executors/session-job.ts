// One sampling session as a job on another host (a Slurm node): everything
// the job needs is in a spec file in the shared data folder; the job starts
// the services from their prepared data on its node, runs the session into a
// DuckDB file of its own (never a shared writer), writes its record and stops
// its services. The runner merges the session files afterwards. A stage on
// the experiment model (commit-sample, effects-sample, ...) runs its session
// through its registered arm adapter instead (experiment-session-job.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SampleJournal } from '../db/sample-journal.js';
import { sampleSession, type SessionRecord } from '../design/sample-session.js';
import { startServiceSession } from '../services/service-session.js';
import { requirements, unmetRequirements } from '../artifacts/host-requirements.js';
import { CheckFailed } from '../errors.js';
import { hostName } from '../process/host-name.js';
import { runExperimentSessionJob } from './experiment-session-job.js';
import { sessionJobContext, sessionJobFiles, type SessionJobSpec } from './session-job-spec.js';

export { sessionJobFiles, sessionJobKind, writeSessionJobSpec, type SessionJobSpec } from './session-job-spec.js';

/** Runs the session a spec file describes, here (on the node the job landed on). */
export async function runSessionJob(specFile: string, log: (line: string) => void): Promise<SessionRecord> {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as SessionJobSpec;
  const files = sessionJobFiles(spec.workDir, spec.session, spec.attempt);
  if ((spec.kind ?? 'sample') !== 'sample') {
    const record = await runExperimentSessionJob(spec, files.journal, log);
    writeFileSync(files.record, JSON.stringify(record, null, 2) + '\n');
    return record;
  }
  // A node that lacks what the real paths need fails here, with `pipeline doctor`'s reasons, before it starts anything.
  if (Object.keys(spec.config.services).length > 0) {
    const unmet = unmetRequirements(requirements());
    if (unmet) throw new CheckFailed(`${hostName()} lacks requirements of the real paths (pipeline doctor): ${unmet}`);
  }
  const runDir = join(spec.dataDir, 'run', `session-job-S${spec.session}-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  const services = await startServiceSession(spec.config, (stageId) => spec.inputs[stageId]?.outputDir ?? null, runDir, log);
  try {
    const journal = await SampleJournal.open(files.journal);
    try {
      const ctx = sessionJobContext(spec, { kind: 'sample', params: {}, runDir, services: services.services, log });
      const record = await sampleSession(
        ctx,
        journal,
        { session: spec.session, attempt: spec.attempt, services: services.services },
        spec.work,
        spec.preflight,
      );
      writeFileSync(files.record, JSON.stringify(record, null, 2) + '\n');
      return record;
    } finally {
      await journal.close();
    }
  } finally {
    await services.stop();
  }
}
