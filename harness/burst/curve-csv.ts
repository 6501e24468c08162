// Pure: the latency–concurrency curve as curve.csv, one row per path and N,
// every figure the report prints about it (P50 Ready, its ratio to N = 1,
// makespan, launches per second, failures, the tail percentiles where n
// supports them), so each recomputes from samples.csv; and the open-loop
// table as open-loop.csv, one row per path and arrival rate, the same way.
import { csv } from '../db/csv-text.js';
import type { CurvePoint, Estimate } from './concurrency-curve.js';
import type { OpenLoopPoint } from './open-loop.js';

const num = (v: number | null | undefined, digits = 4): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '' : String(Number(v.toPrecision(digits + 3)));
const est = (e: Estimate | null): string[] => [num(e?.value), num(e?.low), num(e?.high)];

/** The columns a curve point and an open-loop point share: launches, failures, the P50 and its ratio to N = 1. */
const SHARED = [
  'launches',
  'failures',
  'failure_low',
  'failure_high',
  'p50_ready_ms',
  'p50_low_ms',
  'p50_high_ms',
  'ratio_to_n1',
  'ratio_low',
  'ratio_high',
] as const;
const shared = (p: Pick<CurvePoint, 'launches' | 'failures' | 'p50Ms' | 'ratioToSequential'>): string[] => [
  String(p.launches),
  String(p.failures.successes),
  num(p.failures.low),
  num(p.failures.high),
  ...est(p.p50Ms),
  ...est(p.ratioToSequential),
];

export function curveCsv(points: readonly CurvePoint[]): string {
  const header = [
    'path',
    'level',
    'sessions',
    'bursts',
    ...SHARED,
    'makespan_ms',
    'makespan_low_ms',
    'makespan_high_ms',
    'launches_per_s',
    'launches_per_s_low',
    'launches_per_s_high',
    'p95_ready_ms',
    'p95_low_ms',
    'p95_high_ms',
    'p99_ready_ms',
    'p99_low_ms',
    'p99_high_ms',
  ];
  const tail = (p: CurvePoint, q: number): string[] => {
    const t = p.tails.find((x) => x.p === q)?.interval ?? null;
    return [num(t?.estimate), num(t?.low), num(t?.high)];
  };
  const rows = points.map((p) => [
    p.path,
    String(p.level),
    String(p.sessions),
    String(p.bursts),
    ...shared(p),
    ...est(p.makespanMs),
    ...est(p.launchesPerS),
    ...tail(p, 0.95),
    ...tail(p, 0.99),
  ]);
  return csv(header, rows);
}

export function openLoopCsv(points: readonly OpenLoopPoint[]): string {
  const header = ['path', 'rate_per_s', 'count', 'sessions', 'trains', ...SHARED, 'in_flight_median', 'in_flight_max', 'latest_release_ms'];
  const rows = points.map((p) => [
    p.path,
    String(p.ratePerS),
    String(p.count),
    String(p.sessions),
    String(p.trains),
    ...shared(p),
    num(p.inFlightMedian),
    num(p.inFlightMax),
    num(p.lateMsMax),
  ]);
  return csv(header, rows);
}
