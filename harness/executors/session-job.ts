// One sampling session as a job on another host (a Slurm node): everything
// the job needs is in a spec file in the shared data folder; the job starts
// the services from their prepared data on its node, runs the session into a
// DuckDB file of its own (never a shared writer), writes its record and stops
// its services. The runner merges the session files afterwards. A stage on
// the experiment model (commit-sample, effects-sample, ...) runs its session
// through its registered arm adapter instead (experiment-session-job.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import type { StageContext, StageInput } from '../contract/stage.js';
import { SampleJournal } from '../db/sample-journal.js';
import { sampleSession, type SessionRecord } from '../design/sample-session.js';
import type { SessionWork } from '../experiment/session-plan.js';
import { shutdownSignal } from '../process/cleanup.js';
import { startServiceSession } from '../services/service-session.js';
import { requirements, unmetRequirements } from '../artifacts/host-requirements.js';
import { CheckFailed } from '../errors.js';
import { hostName } from '../process/host-name.js';
import { runExperimentSessionJob } from './experiment-session-job.js';

export interface SessionJobSpec {
  config: PipelineConfig;
  stageId: string;
  key: string;
  inputs: Record<string, StageInput>;
  workDir: string;
  dataDir: string;
  pipelineDir: string;
  pipelineFile: string;
  session: number;
  attempt: number;
  work: SessionWork;
  preflight: boolean;
  /** The stage's kind: 'sample' runs the default experiment's session; any other kind, its registered arm adapter's (experiment/adapter-registry.ts). Absent: 'sample'. */
  kind?: string;
  /** The stage's params (its `with:`), for an adapter built from them. */
  params?: Record<string, unknown>;
  /** The run's last session (an adapter's step after the rounds runs there). */
  last?: boolean;
  /** A copy of the stage's journal at submission: what the session's adapter reads back besides its own rows. */
  priorRows?: string;
}

/** The session's own journal and record, in the stage's work folder (shared with the runner). */
export function sessionJobFiles(workDir: string, session: number, attempt: number): { spec: string; journal: string; record: string } {
  const stem = join(workDir, 'sessions', `S${session}.a${attempt}`);
  return { spec: `${stem}.spec.json`, journal: `${stem}.duckdb`, record: `${stem}.record.json` };
}

export function writeSessionJobSpec(spec: SessionJobSpec): string {
  const file = sessionJobFiles(spec.workDir, spec.session, spec.attempt).spec;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(spec, null, 2) + '\n');
  return file;
}

/** The kind of the stage whose session a spec file describes. */
export function sessionJobKind(specFile: string): string {
  return (JSON.parse(readFileSync(specFile, 'utf8')) as SessionJobSpec).kind ?? 'sample';
}

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
      const ctx: StageContext = {
        id: spec.stageId,
        kind: 'sample',
        params: {},
        config: spec.config,
        outputDir: join(runDir, 'unused-outputs'),
        observationsDir: join(runDir, 'unused-observations'),
        inputs: spec.inputs,
        workDir: spec.workDir,
        dataDir: spec.dataDir,
        pipelineDir: spec.pipelineDir,
        pipelineFile: spec.pipelineFile,
        services: services.services,
        restartServices: async () => {
          throw new Error('a session job runs exactly one session');
        },
        key: spec.key,
        log,
        interactive: false,
        signal: shutdownSignal,
      };
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
