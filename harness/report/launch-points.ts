// Launch rows reduced to what the plots and the web page show (pure). The
// hover of every point names the launch: its round, session and id.
import type { SampleRow } from '../db/sample-row.js';

export interface LaunchPoint {
  cohort: string;
  path: string;
  state: string;
  phase: string;
  round: number;
  /** Sampling session; '1' while the sample table has no session column. */
  session: string;
  launchId: string;
  /** 1-based position among the cohort's launches in run order (all phases). */
  runIndex: number;
  ok: boolean;
  readyMs: number | null;
  completionMs: number | null;
  contentBytes: number | null;
  responseBytes: number | null;
  /** Position among the round's launches of the cohort (0 first); null when not journaled. */
  position: number | null;
  /** The path that ran just before in the round; null when first or not journaled. */
  previousPath: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Rows must be in run order (readLaunchRows gives them so). */
export function launchPoints(rows: readonly SampleRow[]): LaunchPoint[] {
  const next = new Map<string, number>();
  return rows.map((r) => {
    const cohort = String(r['cohort']);
    const runIndex = (next.get(cohort) ?? 0) + 1;
    next.set(cohort, runIndex);
    return {
      cohort,
      path: String(r['path']),
      state: String(r['state']),
      phase: String(r['phase']),
      round: Number(r['round']),
      session: r['session'] === undefined || r['session'] === null ? '1' : String(r['session']),
      launchId: String(r['launch_id']),
      runIndex,
      ok: r['ok'] === true,
      readyMs: num(r['ready_ms']),
      completionMs: num(r['completion_ms']),
      contentBytes: num(r['content_bytes']),
      responseBytes: num(r['response_bytes']),
      position: num(r['order_in_round']),
      previousPath: typeof r['previous_path'] === 'string' && r['previous_path'] !== '' ? r['previous_path'] : null,
    };
  });
}

export const formalOk = (p: LaunchPoint): boolean => p.phase === 'formal' && p.ok;
