// The contract between the engine and a stage module. A stage is a module in
// stages/ whose default export is a StageDefinition; nothing else decides what
// it depends on: its key is built from its kind, the digest of its code (the
// module and the harness modules it imports), the config sections it `reads`,
// its `with` parameters and the output digests of the stages it `needs`.

import type { PipelineConfig } from '../config/pipeline-config.js';
import type { RunningServices } from './running-services.js';

export interface StageInput {
  id: string;
  kind: string;
  /** Frozen products of the needed stage (read only): they enter downstream keys. */
  outputDir: string;
  outputDigest: string;
  /** Frozen observations of the needed stage (timings, logs; read only): audited, never in a downstream key unless the reader declares `readsObservations`. */
  observationsDir: string;
  observationsDigest: string;
}

export interface StageContext {
  /** Stage id in the pipeline file. */
  id: string;
  kind: string;
  /** Normalized `with` parameters of this stage (schema defaults applied). */
  params: Record<string, unknown>;
  /** The whole validated pipeline config; read only the sections in `reads`. */
  config: PipelineConfig;
  /** Where to write products (what later stages compute from): a temporary folder renamed into the store on success. */
  outputDir: string;
  /**
   * Where to write observations: wall times, logs, host facts. They are frozen,
   * audited and shown, but a rerun that changes only them reruns nothing after it.
   */
  observationsDir: string;
  /** Frozen outputs of every stage this one needs, transitively, by stage id. */
  inputs: Record<string, StageInput>;
  /** A folder that survives a crash, keyed by this stage's key: for resumable work (journals). */
  workDir: string;
  /** The data folder (default .data/). */
  dataDir: string;
  /** Folder of the pipeline file; reports and relative paths are resolved against it. */
  pipelineDir: string;
  /** Path of the pipeline file. */
  pipelineFile: string;
  /** Services started by the engine for this stage (empty unless `services` is set). */
  services: RunningServices;
  /**
   * Stops the stage's services and starts them afresh from their prepared
   * data (new data roots, new ports): an independent sampling session.
   * Returns the new services; `services` above is then stale.
   */
  restartServices: () => Promise<RunningServices>;
  /** Stage key (hex). */
  key: string;
  /** Progress and log lines for the user (stderr). */
  log: (line: string) => void;
  /** True when stderr is a terminal. */
  interactive: boolean;
  /** A live progress line, redrawn in place on a terminal; ignored otherwise (use log for lines that stay). */
  progress?: (line: string) => void;
  /** Aborted on SIGINT/SIGTERM; long work should stop promptly. */
  signal: AbortSignal;
}

export interface StageDefinition {
  kind: string;
  description: string;
  /** Top-level config sections (or dotted keys) this stage reads; they are hashed into its key. */
  reads: readonly string[];
  /**
   * A volatile stage (warmup) runs again whenever a stage that needs it runs,
   * right before it; the stages that need it hash its key, not its output digest.
   */
  volatile?: boolean;
  /**
   * Project folders or files (relative to the project root) this stage runs by
   * path rather than importing, e.g. 'harness/paths' for launch scripts; their
   * contents are part of the stage's code digest.
   */
  extraCode?: readonly string[];
  /**
   * The harness scripts this stage runs for its parameters, as `{harness}/<path>`
   * strings, when its start-up paths are chosen in `with:` rather than in the
   * pipeline's `paths:` (burst-sample): `pipeline doctor -f FILE` lists the
   * tools and kernel features they use.
   */
  runsScripts?: (params: Record<string, unknown>) => string[];
  /**
   * Files outside the store this stage reads (absolute, or relative to the
   * pipeline file's folder), from its parameters: their sha256 joins the key,
   * so editing such a file reruns the stage. `at` gives the pipeline file's
   * folder and the output digests of the stage's upstream stages (by id), for
   * a stage whose files depend on them (analyze leaves out the archived copy
   * of the run it analyses).
   */
  inputFiles?: (params: Record<string, unknown>, at: { pipelineDir: string; needs: Readonly<Record<string, string>> }) => string[];
  /**
   * What of the config slice enters the key, when not all of it should: e.g.
   * the pin stage keys an image the user brought by its digest, not by the
   * path or host it is read from. Gets the slice `reads` selects.
   */
  keyConfig?: (slice: Record<string, unknown>, pipelineDir: string) => Record<string, unknown>;
  /** The key also holds the observation digests of the stages it needs (e.g. analyze and report show preparation times). */
  readsObservations?: boolean;
  /** The engine starts the pipeline's services before this stage and keeps them up while needed. */
  services?: boolean;
  /**
   * Copy the frozen outputs to this folder (relative to the pipeline file),
   * e.g. reports/<experiment>. `pipeline audit` checks the copy.
   */
  publishDir?: (config: PipelineConfig) => string;
  run(ctx: StageContext): Promise<void>;
}
