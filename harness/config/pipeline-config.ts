// Types of a validated pipeline file (schemas/pipeline.schema.json is the
// source of truth; defaults are applied by the validator before code sees it).
import type { EffectsSection } from './effects-section.js';
import type { AnalysisRules } from './analysis-rules.js';
import type { ReportOptions } from './report-options.js';

export interface StoreSection {
  signing?: {
    /** PEM file of the ed25519 private key push signs with. */
    key?: string;
    /** PEM files of the ed25519 public keys whose runs pull accepts. */
    trusted: string[];
  };
}

export interface StageDecl {
  id: string;
  uses: string;
  needs: string[];
  with: Record<string, unknown>;
}

export interface ExperimentSection {
  /** Folder name under reports/ and the `experiment` column of samples. */
  name: string;
  /** The question the report answers (its title). */
  question: string;
  motivation?: string;
  /** Free text describing what the experiment does not measure. */
  unmeasured?: string[];
  /** The source report's headline findings (schemas/experiment.schema.json; read by harness/report/source-findings.ts). */
  reference?: Record<string, unknown>;
}

/** A command template: argv whose strings may hold {placeholders}. */
export type CommandTemplate = string[];

export interface OutputCheck {
  exit_code: number;
  /** Regular expressions every one of which must match a stdout line. */
  stdout_patterns: string[];
}

export interface CohortSection {
  /** Artifact id (artifacts.images.<id>) the cohort runs in, if any. */
  image?: string;
  /** argv of the workload; may use {marker}. Expanded where a path template says {command}. */
  command: CommandTemplate;
  env: Record<string, string>;
  expect: OutputCheck;
  description?: string;
}

export interface PathHooks {
  /** Untimed, before each cold launch (remove the image, fresh client cache). */
  before_cold: CommandTemplate[];
  /** Untimed, right after each cold launch, before its row is journaled; may set the row's hook columns (hook-values.ts). */
  after_cold: CommandTemplate[];
  /** Untimed, after the warm launch of each pair (teardown). */
  after_pair: CommandTemplate[];
  /** Untimed, once before the session's first launch of this path. */
  before_session: CommandTemplate[];
  /** Untimed, once after the session's last launch of this path. */
  after_session: CommandTemplate[];
}

export interface PathSection {
  description?: string;
  /** The measured command; `{command}` as a whole element expands to the cohort's argv. */
  launch: CommandTemplate;
  env: Record<string, string>;
  hooks: PathHooks;
  /** Services whose bytes are attributed to this path's launches. */
  services: string[];
  /**
   * Name of a completeness check run on each cold launch, e.g. `full-pull`
   * (content bytes must equal the pinned image's blob sizes). Empty: none.
   */
  cold_check?: string;
}

/** design.settle: the untimed wash-out before every timed launch (harness/experiment/settle.ts). */
export interface SettleSection {
  enabled: boolean;
  /** Dirty + Writeback below which the host counts as settled, in kB. */
  dirty_kb: number;
  timeout_s: number;
  poll_ms: number;
}

export interface DesignSection {
  preflight: number;
  warmup_rounds: number;
  sessions: number;
  rounds: number;
  seed: string;
  /** Path order within a round: a Williams design per session and cohort, or a seeded shuffle per round. */
  order: 'balanced' | 'random';
  /** The untimed wash-out before every timed launch. */
  settle: SettleSection;
  /** MiB of the disk probe at each session's start and end; 0 for none. */
  disk_probe_mb: number;
  /** The host canary at each session's start (harness/experiment/host-canary.ts); the schema defaults it to true. */
  canary?: boolean;
  states: ('cold' | 'warm')[];
  /** One more session for exactly the differences the planned sessions leave undecided (harness/launch-arms/confirm-session.ts); the schema defaults it to false. */
  confirm?: boolean;
  timeout_s: number;
  /** Bytes of stdout/stderr tail kept per launch. */
  tail_bytes: number;
  /** Sweeps: blocks of dimension -> values; see harness/experiment/design-matrix.ts. */
  matrix?: Record<string, (number | string)[]>[];
}

export interface ServiceSection {
  kind: string;
  /** Count bytes through a loopback proxy in front of it. */
  count_bytes: boolean;
  /** Stage id whose outputs/services/<service id>/ folder is this service's prepared data. */
  data_from?: string;
  with: Record<string, unknown>;
}

export interface PipelineConfig {
  /** Absolute path of the pipeline file. */
  file: string;
  experiment: ExperimentSection;
  artifacts: Record<string, unknown>;
  services: Record<string, ServiceSection>;
  cohorts: Record<string, CohortSection>;
  paths: Record<string, PathSection>;
  design: DesignSection;
  /** The analysis and report sections as written: stage keys hash these (engine/stage-key.ts). */
  analysis: Record<string, unknown>;
  report: Record<string, unknown>;
  /** The analysis section typed once, at load (config/typed-sections.ts). A stage reads a field when it declares the field's key (analysisRuleKeys). */
  rules: AnalysisRules;
  /** The report section typed once, at load; read as `rules` is (reportOptionKeys). */
  reportOptions: ReportOptions;
  /** The effect-table experiment's rows (pipelines/sandbox-effects.yaml). */
  effects?: EffectsSection;
  executor: ExecutorSection;
  /** Where the data folder lives (not part of any stage key). */
  data?: DataSection;
  /** The team store: signing of pushed runs (schemas/store.schema.json; not part of any stage key). */
  store?: StoreSection;
  stages: StageDecl[];
}

export interface DataSection {
  filesystem?: { kind: 'ext4-image'; size_gib: number };
}

/** Where sampling sessions run (not part of any stage key). */
export interface ExecutorSection {
  /** One of the kinds in executors/session-executor.ts's registry (the schema's enum lists them; a test keeps the two equal). */
  kind: string;
  partition?: string;
  constraint?: string;
  nodelist?: string;
  slurm_conf?: string;
}
