// Variance components of one cell (one cohort, path, state and metric) in a
// nested design: sessions, and rounds within a session.
//
// Model (one-way random effects): y_sr = mu + S_s + e_sr, where S_s is the
// session's offset (variance betweenVar) and e_sr the round's (variance
// withinVar). Estimator: the ANOVA (method of moments) estimator, which for
// equal rounds per session is Kalibera & Jones's T_2^2 and T_1^2:
//   MSW = sum_s sum_r (y_sr - mean_s)^2 / (N - K)                 -> withinVar
//   MSB = sum_s n_s (mean_s - mean)^2 / (K - 1)
//   n0  = (N - sum_s n_s^2 / N) / (K - 1)   (= n when balanced)
//   betweenVar = max(0, (MSB - MSW) / n0)    (a negative estimate means no
//                                             detectable session effect)
// Balanced, betweenVar = S_2^2 - S_1^2 / n: the paper's corrected T_2^2 (the
// first printing subtracted T_1^2 / n; the authors' revised version and their
// libkalibera use S_1^2 / n, which is the same number at two levels).
// Which level dominates: the level contributing more to the variance of the
// cell's mean as it was measured, betweenVar / K against withinVar / N. That
// is the level where more repetition narrows the interval more.
//
// Per cell also the median of each session and the between-session spread,
// largest / smallest session median (type-7 medians).

import { median } from './quantile.js';

/** One formal value of one cell: its session (from 1), round and value (e.g. readyMs). */
export interface CellValue {
  session: number;
  round: number;
  value: number;
}

export type Level = 'sessions' | 'rounds';

export interface VarianceComponents {
  sessions: number;
  values: number;
  mean: number;
  /** Between-session variance (T_2^2); null with fewer than 2 sessions. */
  betweenVar: number | null;
  /** Between-round-within-session variance (T_1^2); null when no session has 2 values. */
  withinVar: number | null;
  /** betweenVar / (betweenVar + withinVar): the share of one value's variance due to sessions. */
  betweenShare: number | null;
  /** The level contributing more to the variance of the measured mean; null when not estimable. */
  dominant: Level | null;
}

export interface SessionSpread {
  medians: { session: number; values: number; median: number }[];
  /** Largest / smallest session median; null with no session or a non-positive median. */
  spreadRatio: number | null;
}

function bySession(values: readonly CellValue[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const v of values) {
    if (!Number.isFinite(v.value)) continue;
    let g = groups.get(v.session);
    if (!g) groups.set(v.session, (g = []));
    g.push(v.value);
  }
  return new Map([...groups.entries()].sort((x, y) => x[0] - y[0]));
}

export function varianceComponents(values: readonly CellValue[]): VarianceComponents {
  const groups = [...bySession(values).values()];
  const k = groups.length;
  const n = groups.reduce((s, g) => s + g.length, 0);
  const mean = n === 0 ? Number.NaN : groups.reduce((s, g) => s + g.reduce((x, y) => x + y, 0), 0) / n;
  const means = groups.map((g) => g.reduce((x, y) => x + y, 0) / g.length);
  let ssw = 0;
  let ssb = 0;
  groups.forEach((g, i) => {
    for (const y of g) ssw += (y - means[i]!) ** 2;
    ssb += g.length * (means[i]! - mean) ** 2;
  });
  const withinVar = n > k ? ssw / (n - k) : null;
  let betweenVar: number | null = null;
  if (k >= 2 && withinVar !== null) {
    const n0 = (n - groups.reduce((s, g) => s + g.length ** 2, 0) / n) / (k - 1);
    betweenVar = Math.max(0, (ssb / (k - 1) - withinVar) / n0);
  }
  const total = betweenVar !== null && withinVar !== null ? betweenVar + withinVar : null;
  const betweenShare = total !== null && total > 0 ? betweenVar! / total : null;
  const dominant: Level | null = betweenVar === null || withinVar === null ? null : betweenVar / k > withinVar / n ? 'sessions' : 'rounds';
  return { sessions: k, values: n, mean, betweenVar, withinVar, betweenShare, dominant };
}

export function sessionSpread(values: readonly CellValue[]): SessionSpread {
  const medians = [...bySession(values).entries()].map(([session, g]) => ({ session, values: g.length, median: median(g) }));
  if (medians.length === 0) return { medians, spreadRatio: null };
  const ms = medians.map((m) => m.median);
  const lo = Math.min(...ms);
  return { medians, spreadRatio: lo > 0 ? Math.max(...ms) / lo : null };
}
