// A sample row: one launch, as the samples table and samples.csv hold it
// (schemas/sample.schema.json). It is a typed union, an ok launch or a failed
// one, generic over the columns an experiment declares beyond the shared ones
// (`adapter.columns`).
//
// One vocabulary. The experiment model calls a design's three factors unit, arm
// and condition; a row keeps the column names a user reads in samples.csv:
//   cohort = the unit (what is started: an image, a command, a commit size),
//   path   = the arm (how it is started: a start-up path, a sandbox),
//   state  = the condition (cold, warm, or a sweep's level).
//
// A row is typed once, where it enters: the journal (DuckDB), the CSV parser
// (checked against the schema) and the arms that build it. Everything after
// reads fields by name, and narrows on `ok`.
import type { SampleValue, sampleColumns } from './sample-columns.js';

export type Phase = 'preflight' | 'warmup' | 'formal' | 'canary';

/** Where a launch sits in the design and the session: every row has these. */
export interface RowPlace {
  experiment: string;
  /** The unit. */
  cohort: string;
  /** The arm. */
  path: string;
  /** The condition. */
  state: string;
  phase: Phase;
  round: number;
  order_in_round: number;
  /** `<session>.<phase>.r<round>.<cohort>.<path>.<state>.a<attempt>`; the table's key. */
  launch_id: string;
  session: number;
  host: string;
  /** ISO 8601, the launch's spawn. */
  started_at: string;
}

/** What a launch measured. An experiment fills those it has; the rest are null or absent. */
export interface LaunchMeasures {
  ready_ms?: number | null;
  completion_ms?: number | null;
  content_bytes?: number | null;
  response_bytes?: number | null;
  ready_content_bytes?: number | null;
  fetch_wait_ms?: number | null;
  ready_fetch_wait_ms?: number | null;
  files_read?: number | null;
  image_files?: number | null;
  exit_code?: number | null;
  signal?: string | null;
  user_cpu_ms?: number | null;
  sys_cpu_ms?: number | null;
  max_rss_kb?: number | null;
  previous_path?: string | null;
  settle_ms?: number | null;
  dirty_kb?: number | null;
  writeback_kb?: number | null;
  settle_timed_out?: boolean | null;
  /** An experiment's one measured value when it is not a launch time (commit-diff's commit time). */
  value?: number | null;
}

export interface OkLaunch extends RowPlace, LaunchMeasures {
  ok: true;
  failure_reason?: null;
}

export interface FailedLaunch extends RowPlace, LaunchMeasures {
  ok: false;
  /** Why, in one line; null only in an imported CSV that gave none. */
  failure_reason: string | null;
}

// Checked when compiling: the row names exactly the shared columns of sample-columns.ts (the one list the table, the CSV and the schema test use).
type SharedColumn = (typeof sampleColumns)[number]['name'];
type Unmatched = [Exclude<SharedColumn, keyof OkLaunch>, Exclude<keyof OkLaunch, SharedColumn>];
type Holds<T extends true> = T;
export type RowTypeMatchesColumns = Holds<Unmatched extends [never, never] ? true : false>;

/** One launch: ok or failed, with an experiment's declared columns `Extra`. */
export type SampleRow<Extra extends object = {}> = (OkLaunch | FailedLaunch) & Extra;

/** Where a visit stands before its launch started: the place without its start time, and the arm before it. */
export type VisitPlace = Omit<RowPlace, 'started_at'> & { previous_path: string | null };

/** A row read by column name: the journal's and the CSV writer's view, which walk a column list. */
export function cellsOf(row: SampleRow<object>): Readonly<Record<string, SampleValue | undefined>> {
  return row as unknown as Readonly<Record<string, SampleValue | undefined>>;
}

/** A row built by column name (the journal, the CSV parser), once its required columns were checked. */
export function rowOfCells<Extra extends object = {}>(cells: Record<string, SampleValue>): SampleRow<Extra> {
  return cells as unknown as SampleRow<Extra>;
}

/** A row's outcome: ok with no reason, or failed with one. */
export type Outcome = { ok: true; failure_reason: null } | { ok: false; failure_reason: string | null };

export function outcomeOf(ok: boolean, reason: string | null): Outcome {
  return ok ? { ok: true, failure_reason: null } : { ok: false, failure_reason: reason };
}
