// What `pipeline compare` needs from a published report folder
// (reports/<experiment>/): the median differences of differences.csv and the
// cell P50s of statistics.csv. Columns are read by header name, so today's
// format and later ones (e.g. with `sessions_same_direction`) both read.

import type { Verdict } from '../analysis/comparison-verdict.js';
import type { DifferenceKey } from '../analysis/difference-record.js';
import type { RunCanary } from './run-canary.js';

/** One row of differences.csv with kind = median_difference: the comparison record (analysis/difference-record.ts) as published. */
export interface PublishedDifference extends DifferenceKey {
  /** median_difference (a - b, null value 0) or median_ratio (a / b, null value 1). */
  kind: 'median_difference' | 'median_ratio';
  /** Observed median(a) - median(b); null when the report has none. */
  value: number | null;
  low: number | null;
  high: number | null;
  detected: boolean;
  /** The between-session t interval (`session_low`, `session_high`), when the report has it. */
  sessionLow?: number | null;
  sessionHigh?: number | null;
  /** `sessions_same_direction` as written (e.g. "2 of 3" or "2"), when the report has that column. */
  sessionsSameDirection: string | null;
  /** `order_effect`: a cell compared was flagged order effect; null when the report has no such column (written before issue 18). */
  orderEffect: boolean | null;
  /** The record's four-outcome verdict (`verdict`); null when the report has no such column (written before it). */
  verdict: Verdict | null;
  /** The rerun interval (`rerun_low`, `rerun_high`): where a rerun's estimate should fall; null when the report has none. */
  rerunLow?: number | null;
  rerunHigh?: number | null;
}

/** One row of statistics.csv. */
export interface PublishedCell {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  p50: number | null;
  /** `order_effect` of statistics.csv; null when the report has no such column or the row has none (byte rows). */
  orderEffect: boolean | null;
  /** `cell_session_spread` of sessions.csv: largest / smallest session median of the cell; null with one session, or when the report has no sessions.csv. */
  sessionSpread: number | null;
  /** How many sessions sessions.csv has of the cell; null without sessions.csv. */
  sessions?: number | null;
}

export interface PublishedReport {
  /** The folder as the user named it. */
  folder: string;
  differences: PublishedDifference[];
  cells: PublishedCell[];
  /** disk.csv: each session's disk probe at its start and end; empty when the report has none. */
  disks: PublishedDisk[];
  /** The run's host canary from its run.json (run-canary.ts); null or absent when none is recorded. */
  canary?: RunCanary | null;
  /** The canaries of the folder's archived runs (runs/), for the spread of the host-class rule; absent when not read. */
  archiveCanaries?: RunCanary[];
}

/** One row of disk.csv. */
export interface PublishedDisk {
  session: number;
  attempt: number;
  moment: string;
  writeMBps: number | null;
  readMBps: number | null;
}
