// Pure: the host canary's launches in one session (harness/launch/canary.c
// pieces, each repeated, interleaved so a slow moment touches every piece)
// and the sample row each becomes. Rows are phase 'canary', cohort 'host',
// path the piece, state 'none': the formal statistics never see them.
import { outcomeOf, type SampleRow } from '../db/sample-row.js';
import type { LaunchResult } from '../launch/launch-types.js';
import { launchColumns } from './launch-columns.js';

export const CANARY_PIECES = ['cpu', 'mem', 'fs', 'wake', 'exec'] as const;
export type CanaryPiece = (typeof CANARY_PIECES)[number];
/** Repeats of each piece per session: 5 values give a session median an interval. */
export const CANARY_REPEATS = 5;
export const CANARY_PHASE = 'canary';
export const CANARY_COHORT = 'host';
export const CANARY_STATE = 'none';
export const CANARY_TIMEOUT_MS = 20_000;

export interface CanaryLaunch {
  piece: CanaryPiece;
  /** 1-based repeat: the row's round. */
  repeat: number;
  /** Index of the piece in its repeat: the row's order_in_round. */
  order: number;
  launchId: string;
}

/** `host.cpu.none.c2.S1.a3`: repeat 2 of the cpu piece in session 1, attempt 3 ('c' is no other phase's letter). */
export function canaryLaunchId(session: number, attempt: number, piece: CanaryPiece, repeat: number): string {
  return `${CANARY_COHORT}.${piece}.${CANARY_STATE}.c${repeat}.S${session}.a${attempt}`;
}

export function canaryPlan(session: number, attempt: number, repeats = CANARY_REPEATS): CanaryLaunch[] {
  const out: CanaryLaunch[] = [];
  for (let repeat = 1; repeat <= repeats; repeat++)
    CANARY_PIECES.forEach((piece, order) => out.push({ piece, repeat, order, launchId: canaryLaunchId(session, attempt, piece, repeat) }));
  return out;
}

/** The piece's arguments after the canary program: its name, the marker to print when done, the folder (fs). */
export function canaryArgs(piece: CanaryPiece, marker: string, dataDir: string): string[] {
  return piece === 'fs' ? [piece, marker, dataDir] : [piece, marker];
}

/** The journal row of one canary launch: ok when it exited 0 after printing its marker. */
export function canaryRow(
  l: CanaryLaunch,
  r: LaunchResult,
  where: { experiment: string; session: number; host: string; startedAt: string; previous: CanaryPiece | null },
): SampleRow {
  const ok = r.state === 'ok' && r.exitCode === 0;
  return {
    experiment: where.experiment,
    cohort: CANARY_COHORT,
    path: l.piece,
    state: CANARY_STATE,
    phase: CANARY_PHASE,
    round: l.repeat,
    order_in_round: l.order,
    launch_id: l.launchId,
    session: where.session,
    host: where.host,
    ...launchColumns(r),
    ...outcomeOf(ok, r.failureReason ?? `exit code ${r.exitCode}: ${r.stderrTail.trim().slice(-200)}`),
    started_at: where.startedAt,
    previous_path: where.previous,
  };
}

/** True when the journal already holds canary rows of this session (an earlier attempt ran it): a resumed session does not repeat them. */
export function canaryJournaled(rows: readonly SampleRow[], session: number): boolean {
  return rows.some((r) => r['phase'] === CANARY_PHASE && r['session'] === session);
}
