// Plain reference implementations of the project's bootstraps, for tests that
// hold the fast ones (stats/two-level-bootstrap-fast.ts, stats/ratio-of-medians.ts)
// to the same numbers: each resample is drawn with seededRandom and randomInt
// in the documented order, its values are put in an array and sorted, and
// every quantile is quantileSorted() on sorted values. Slow, and obviously so.
import { quantileSorted } from '../../harness/stats/quantile.js';
import { randomInt, seededRandom } from '../../harness/stats/seeded-random.js';
import type { PairedSession, PairedStatistic } from '../../harness/stats/two-level-bootstrap.js';

const sortedMedian = (values: number[]): number =>
  quantileSorted(
    [...values].sort((x, y) => x - y),
    0.5,
  );

export interface ReferenceInterval {
  observed: number | null;
  perSession: number[];
  low: number | null;
  high: number | null;
}

export function referenceTwoLevel(
  allSessions: readonly PairedSession[],
  resamples: number,
  confidence: number,
  seed: string,
  statistic: PairedStatistic = 'difference',
): ReferenceInterval {
  const combine = (x: number, y: number): number => (statistic === 'ratio' ? x / y : x - y);
  const sessions = allSessions.map((s) => s.rounds.filter((r) => r.a.length > 0 && r.b.length > 0)).filter((rounds) => rounds.length > 0);
  if (sessions.length === 0) return { observed: null, perSession: [], low: null, high: null };
  const statOf = (rounds: readonly { a: readonly number[]; b: readonly number[] }[]): number =>
    combine(sortedMedian(rounds.flatMap((r) => r.a)), sortedMedian(rounds.flatMap((r) => r.b)));
  const random = seededRandom(seed);
  const k = sessions.length;
  const stats: number[] = [];
  for (let s = 0; s < resamples; s++) {
    const drawn: { a: readonly number[]; b: readonly number[] }[] = [];
    for (let d = 0; d < k; d++) {
      const session = k === 1 ? sessions[0]! : sessions[randomInt(random, k)]!;
      for (let j = 0; j < session.length; j++) drawn.push(session[randomInt(random, session.length)]!);
    }
    stats.push(statOf(drawn));
  }
  stats.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return {
    observed: statOf(sessions.flat()),
    perSession: sessions.map(statOf),
    low: quantileSorted(stats, tail),
    high: quantileSorted(stats, 1 - tail),
  };
}

export function referenceRatioOfMedians(
  numerator: readonly number[],
  denominator: readonly number[],
  resamples: number,
  confidence: number,
  seed: string,
): { ratio: number; low: number; high: number } {
  const num = [...numerator].sort((x, y) => x - y);
  const den = [...denominator].sort((x, y) => x - y);
  const random = seededRandom(seed);
  const ratios: number[] = [];
  for (let s = 0; s < resamples; s++) {
    const drawnNum = num.map(() => num[randomInt(random, num.length)]!);
    const drawnDen = den.map(() => den[randomInt(random, den.length)]!);
    ratios.push(sortedMedian(drawnNum) / sortedMedian(drawnDen));
  }
  ratios.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return { ratio: sortedMedian(num) / sortedMedian(den), low: quantileSorted(ratios, tail), high: quantileSorted(ratios, 1 - tail) };
}
