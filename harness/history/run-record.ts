// One archived run: reports/<experiment>/runs/<date>-<run id>/ holds the
// report data of one published run (statistics, differences, sessions,
// provenance and samples CSVs) and run.json, this record. The run id is the
// first 12 hex digits of the run digest (digest/run-digest.ts), the same as
// `pipeline push` prints and the registry's tag holds; run.json records that
// digest, the stages it is made of, its own digest (recordDigest) and the
// sha256 of every other file, so an edited archive fails `pipeline audit`.
// A run filed before run.json recorded a run digest (or imported, without
// stages) is named after sha256(canonical JSON of run.json) instead.
import type { HostFingerprint } from '../process/host-fingerprint.js';
import type { RunCanary } from '../compare/run-canary.js';

export const RUN_FORMAT = 'benchgraph-run/1';
export const RUN_FILE = 'run.json';
/** The report files an archived run keeps (those present in the published folder). */
export const ARCHIVED_FILES = ['statistics.csv', 'differences.csv', 'sessions.csv', 'provenance.csv', 'samples.csv'] as const;

/** A stage's own key inputs: what it ran and read, without the digests of the stages it needs. */
export interface ArchivedStage {
  uses: string;
  key: string;
  outputDigest: string;
  code: Record<string, string>;
  config: Record<string, unknown>;
  params: Record<string, unknown>;
  files?: Record<string, string>;
  /** sha256:<hex> of the stage's manifest.json (runs filed since the archive and the store share one run id). */
  manifest?: string;
}

export interface ArchivedSession {
  session: number;
  attempt: number;
  host: string;
  startedAt: string;
  endedAt: string;
  fingerprint: HostFingerprint | null;
  /** The host's other load over the session (harness/process/host-noise.ts), when recorded. */
  noise?: SessionLoad | null;
}

export interface SessionLoad {
  /**
   * The session's noise flag: with `rule: 'canary'`, the calibrated flag the report uses
   * (analysis/session-noise.ts: the session's canary slower than the run's other sessions beyond its interval);
   * without `rule` (runs archived before 2026-12-04, or a run without a canary), the fixed thresholds of
   * process/host-noise.ts, which flagged every session on the published host kind.
   */
  noisy: boolean;
  /** The canary pieces that were slower, then the CPU account (steady background taken out); or the fixed thresholds crossed. */
  reasons: string[];
  rule?: 'canary';
  /** 1-minute load averages at the session's start and end. */
  loadAverageStart: number;
  loadAverageEnd: number;
  idleShare: number;
  stealShare: number;
}

export type { RunCanary };

export interface RunRecord {
  format: typeof RUN_FORMAT;
  experiment: string;
  /** When the run was measured: the end of its last sampling session, else its last formal launch. */
  time: string;
  /** A user label (`pipeline history --import FOLDER --label TEXT`), for `--by label`. */
  label: string | null;
  /** `published` (filed by `pipeline run`) or `imported` (`pipeline history --import`). */
  source: 'published' | 'imported';
  /** Stage id -> its key inputs; null for an imported folder, whose inputs were not recorded. */
  stages: Record<string, ArchivedStage> | null;
  sessions: ArchivedSession[];
  /** File name -> sha256 of every other file of the run folder. */
  files: Record<string, string>;
  /** The host canary; absent when the run had none, or was archived before run.json kept it (2026-12-04). */
  canary?: RunCanary;
  /** The run digest (digest/run-digest.ts) of `stages`, each with its manifest: the registry tags a pushed run with it. Absent for runs filed before (and imported ones). */
  runDigest?: string;
  /** sha256 of the canonical JSON of this record without this field; present with runDigest. */
  recordDigest?: string;
}
