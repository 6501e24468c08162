// Pure: the open-loop arms of a burst run (`<path>-r<λ>`, burst-arms.ts):
// trains of a fixed count of launches, the launch helper releasing one every
// 1/λ s whether or not the earlier ones are done, each timed from its own
// release. Per path and rate:
// - the P50 of per-launch Ready from its own release: each session's P50,
//   their geometric mean and its between-session t interval, and its ratio to
//   the same path's sequential launch (N = 1) session by session, as
//   concurrency-curve.ts does for closed loops;
// - failures, with their Clopper–Pearson interval;
// - how many launches were in flight at once: each train's peak (a launch is
//   in flight from its release to its Completion), the median and the largest
//   over trains: at a rate the path keeps up with it stays near λ × one
//   launch's time, and it grows toward the count where the path falls behind;
// - how late the helper's releases came: the largest spawn after its release.
import { clopperPearson, type ProportionInterval } from '../stats/clopper-pearson.js';
import { median } from '../stats/quantile.js';
import type { BurstLaunch } from '../stats/burst-summary.js';
import { openArmOf } from './burst-arms.js';
import { logScaleEstimate, readyOf, sessionMedians, sessionRatios, type Estimate } from './concurrency-curve.js';

/** One formal launch of a burst run as the open-loop table reads it. */
export interface OpenLoopRow {
  path: string;
  phase: string;
  session: number;
  round: number;
  ok: boolean;
  ready_ms: number | null;
  completion_ms: number | null;
  spawn_offset_ms?: number | null;
  release_offset_ms?: number | null;
}

export interface OpenLoopPoint {
  path: string;
  ratePerS: number;
  /** Launches per train. */
  count: number;
  sessions: number;
  trains: number;
  launches: number;
  failures: ProportionInterval;
  /** null when no launch became Ready. */
  p50Ms: Estimate | null;
  /** P50 over the same path's P50 at N = 1; null without N = 1 launches. */
  ratioToSequential: Estimate | null;
  /** Launches in flight at once: the median and the largest of the trains' peaks (trains with every Completion). */
  inFlightMedian: number | null;
  inFlightMax: number | null;
  /** The latest release: its spawn after its scheduled time, ms. */
  lateMsMax: number | null;
}

/** The largest number of [start, end) intervals that overlap. */
export function peakOverlap(intervals: readonly (readonly [number, number])[]): number {
  const events = intervals.flatMap(([s, e]) => [
    [s, 1],
    [e, -1],
  ]);
  events.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!); // an end before a start at the same instant
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d!));
  return peak;
}

/** `sequential`: each path's N = 1 launches (burst-launches.ts), the reference of the ratio. */
export function openLoopTable(rows: readonly OpenLoopRow[], sequential: readonly BurstLaunch[], confidence = 0.95): OpenLoopPoint[] {
  const cells = new Map<string, { path: string; ratePerS: number; rows: OpenLoopRow[] }>();
  for (const r of rows) {
    const arm = r.phase === 'formal' ? openArmOf(r.path) : null;
    if (!arm) continue;
    const c = cells.get(r.path) ?? { ...arm, rows: [] };
    c.rows.push(r);
    cells.set(r.path, c);
  }
  const points = [...cells.values()].map((c): OpenLoopPoint => {
    const launches: BurstLaunch[] = c.rows.map((r) => {
      const ready = r.ok && typeof r.ready_ms === 'number' ? r.ready_ms : null;
      return { path: c.path, level: 1, session: r.session, burst: `r${r.round}`, readyMs: ready, ok: ready !== null };
    });
    const trains = new Map<string, OpenLoopRow[]>();
    for (const r of c.rows) {
      const k = `${r.session}.${r.round}`;
      const train = trains.get(k);
      if (train) train.push(r);
      else trains.set(k, [r]);
    }
    const peaks = [...trains.values()]
      .filter((t) => t.every((r) => typeof r.completion_ms === 'number' && typeof r.release_offset_ms === 'number'))
      .map((t) => peakOverlap(t.map((r) => [r.release_offset_ms!, r.release_offset_ms! + r.completion_ms!] as const)));
    const late = c.rows.map((r) => r.spawn_offset_ms).filter((v): v is number => typeof v === 'number');
    const ready = readyOf(launches);
    const base = sequential.filter((l) => l.path === c.path && l.level === 1);
    return {
      path: c.path,
      ratePerS: c.ratePerS,
      count: Math.max(...[...trains.values()].map((t) => t.length)),
      sessions: new Set(c.rows.map((r) => r.session)).size,
      trains: trains.size,
      launches: c.rows.length,
      failures: clopperPearson(c.rows.length - ready.length, c.rows.length, confidence),
      p50Ms: logScaleEstimate(sessionMedians(launches, readyOf), confidence),
      ratioToSequential: base.length ? logScaleEstimate(sessionRatios(launches, base), confidence) : null,
      inFlightMedian: peaks.length ? median(peaks) : null,
      inFlightMax: peaks.length ? Math.max(...peaks) : null,
      lateMsMax: late.length ? Math.max(...late) : null,
    };
  });
  return points.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.ratePerS - b.ratePerS));
}
