// What the analysis needs from samples.duckdb, grouped and counted by DuckDB.
// Reading is the effect (read-samples.ts); everything after it is pure.
import type { CanaryLaunchRow } from './canary-statistics.js';

export interface CellCount {
  cohort: string;
  path: string;
  state: string;
  launches: number;
  failures: number;
}

export interface PhaseRow {
  cohort: string;
  phase: string;
  launches: number;
  failures: number;
  rounds: number;
}

export interface FailureRow {
  cohort: string;
  path: string;
  state: string;
  reason: string;
  count: number;
}

/** Which launch a row is: its id and its cell, session and round. */
export interface LaunchIdentity {
  launchId: string;
  cohort: string;
  path: string;
  state: string;
  session: number;
  round: number;
}

/** One valid (ok) formal launch. */
export interface ValueRow extends LaunchIdentity {
  /** 0-based position of the path in its round's order within the cohort (read-samples.ts). */
  position: number;
  /** The path run just before in the same round; null for the first. */
  previousPath: string | null;
  readyMs: number | null;
  completionMs: number | null;
  contentBytes: number | null;
  responseBytes: number | null;
}

export interface SampleData {
  phases: PhaseRow[];
  cells: CellCount[];
  /** Distinct paths among each cohort's formal launches: the positions of its rounds. */
  positions: Record<string, number>;
  failures: FailureRow[];
  /** Ordered by cohort, path, state, round, order in round, launch id. */
  values: ValueRow[];
  /** Phase marks of valid formal launches (empty when the paths print none, or the file has no phases table). */
  marks: MarkRow[];
  /** When each session's launches started (every phase), for the next run's costs; absent in data made without it. */
  sessionTimes?: SessionTimes[];
  /** The host canary's launches (phase 'canary'); absent or empty when the samples have none. */
  canary?: CanaryLaunchRow[];
}

/** The start times (ISO-8601, from started_at) of one session's first launch and of its first and last formal launch. */
export interface SessionTimes {
  session: number;
  firstStartedAt: string;
  firstFormalAt: string | null;
  lastFormalAt: string | null;
  formalLaunches: number;
}

/** One phase mark of one valid formal launch: time from spawn to the mark. */
export interface MarkRow {
  launchId: string;
  cohort: string;
  path: string;
  state: string;
  seq: number;
  name: string;
  atMs: number;
}
