// What a session job runs, as a file in the shared data folder: the stage's
// config slice, inputs, folders, the session and its work; and where the job
// writes its own journal and record beside it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import type { StageContext, StageInput } from '../contract/stage.js';
import type { RunningServices } from '../contract/running-services.js';
import { shutdownSignal } from '../process/cleanup.js';
import type { SessionWork } from '../experiment/session-plan.js';

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
  /** The session runs its adapter's preflight (every job is a fresh session on its node). */
  preflight: boolean;
  /** The stage's kind: the job runs its registered arm adapter's session (experiment/adapter-registry.ts). Absent: 'sample'. */
  kind?: string;
  /** The arms of each unit when the session visits only some (an added session). */
  arms?: Readonly<Record<string, readonly string[]>>;
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

/** The stage context a session job runs its one session in: the spec's stage, config and folders, the node's services, no outputs of its own. */
export function sessionJobContext(
  spec: SessionJobSpec,
  o: { kind: string; params: Record<string, unknown>; runDir: string; services: RunningServices; log: (line: string) => void },
): StageContext {
  return {
    id: spec.stageId,
    kind: o.kind,
    params: o.params,
    config: spec.config,
    outputDir: join(o.runDir, 'unused-outputs'),
    observationsDir: join(o.runDir, 'unused-observations'),
    inputs: spec.inputs,
    workDir: spec.workDir,
    dataDir: spec.dataDir,
    pipelineDir: spec.pipelineDir,
    pipelineFile: spec.pipelineFile,
    services: o.services,
    restartServices: async () => {
      throw new Error('a session job runs exactly one session');
    },
    key: spec.key,
    log: o.log,
    interactive: false,
    signal: shutdownSignal,
  };
}
