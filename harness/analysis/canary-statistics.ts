// Pure: the host canary's statistics (analysis.json `canary`): per piece, the
// median completion time (spawn to exit, the launch helper's clock) of each
// session and of the whole run, each with the two-level bootstrap interval of
// stats/two-level-median.ts (within one session: its repeats; over the run:
// sessions, then repeats). Only ok launches count; failures are counted.
import { twoLevelMedian } from '../stats/two-level-median.js';
import type { BootstrapOptions } from '../stats/two-level-bootstrap.js';

/** One canary launch (phase 'canary'): its session, piece (the row's path) and repeat (its round). */
export interface CanaryLaunchRow {
  session: number;
  piece: string;
  repeat: number;
  ok: boolean;
  completionMs: number | null;
}

export interface CanaryMedian {
  piece: string;
  n: number;
  failures: number;
  medianMs: number | null;
  lowMs: number | null;
  highMs: number | null;
}

export interface CanaryResult {
  /** What is timed: completion (spawn to exit with both pipes closed). */
  metric: 'completion';
  /** Pieces in the order they run (harness/launch/canary.c). */
  pieces: string[];
  sessions: { session: number; pieces: CanaryMedian[] }[];
  /** Over every session of the run. */
  run: (CanaryMedian & { sessions: number })[];
  confidence: number;
  resamples: number;
}

/** null when the samples hold no canary launch (design.canary off, or samples from before it). */
export function canaryStatistics(rows: readonly CanaryLaunchRow[], bootstrap: BootstrapOptions): CanaryResult | null {
  if (rows.length === 0) return null;
  const pieces = [...new Set(rows.map((r) => r.piece))];
  const sessions = [...new Set(rows.map((r) => r.session))].sort((a, b) => a - b);
  const median = (of: readonly CanaryLaunchRow[], ...seed: (string | number)[]) => {
    const ok = of.filter((r) => r.ok && r.completionMs !== null && Number.isFinite(r.completionMs));
    const m = twoLevelMedian(
      ok.map((r) => ({ session: r.session, round: r.repeat, value: r.completionMs! })),
      { ...bootstrap, seed: [bootstrap.seed, 'canary', ...seed].join('|') },
    );
    return { m, failures: of.length - ok.length };
  };
  return {
    metric: 'completion',
    pieces,
    sessions: sessions.map((session) => ({
      session,
      pieces: pieces.map((piece) => {
        const { m, failures } = median(
          rows.filter((r) => r.session === session && r.piece === piece),
          piece,
          session,
        );
        return { piece, n: m.n, failures, medianMs: m.medianMs, lowMs: m.lowMs, highMs: m.highMs };
      }),
    })),
    run: pieces.map((piece) => {
      const { m, failures } = median(
        rows.filter((r) => r.piece === piece),
        piece,
      );
      return { piece, n: m.n, sessions: m.sessions, failures, medianMs: m.medianMs, lowMs: m.lowMs, highMs: m.highMs };
    }),
    confidence: bootstrap.confidence,
    resamples: bootstrap.resamples,
  };
}
