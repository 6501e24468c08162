// Pure: what `pipeline measure --concurrency N` adds per command. Each round's
// N copies of a command were released together (one burst): per burst, the
// time until the first and until the last copy finished the compared metric
// (Ready when measured, else Completion), from the release; over the bursts,
// their medians, the launches per second a burst sustained (N over its
// makespan, a burst with a failed copy has none), and the failed copies with
// their Clopper–Pearson interval. Medians over bursts with no interval: a
// measurement has no sessions; `pipeline run` with a burst design gives them.
import { clopperPearson, type ProportionInterval } from '../stats/clopper-pearson.js';
import { summarizeBursts } from '../stats/burst-summary.js';
import { median } from '../stats/quantile.js';
import type { Observation } from './observation.js';
import { metricOf, type MeasureMetric } from './until-decided.js';

export interface BurstLine {
  command: number;
  /** Launches released together. */
  concurrency: number;
  bursts: number;
  /** Medians over the bursts where every copy finished; null when none did. */
  firstMs: number | null;
  makespanMs: number | null;
  launchesPerS: number | null;
  failures: ProportionInterval;
}

export function burstLines(formal: readonly Observation[], commands: number, concurrency: number, metric: MeasureMetric): BurstLine[] {
  const out: BurstLine[] = [];
  for (let c = 0; c < commands; c++) {
    const mine = formal.filter((o) => o.command === c);
    const bursts = summarizeBursts(
      mine.map((o) => ({ path: String(c), level: concurrency, session: 1, burst: String(o.round), readyMs: o.ok ? metricOf[metric](o) : null, ok: o.ok })),
    );
    const of = (key: 'firstReadyMs' | 'makespanMs' | 'launchesPerS'): number | null => {
      const v = bursts.map((b) => b[key]).filter((x): x is number => x !== null);
      return v.length ? median(v) : null;
    };
    const failed = bursts.reduce((s, b) => s + b.failures, 0);
    out.push({
      command: c,
      concurrency,
      bursts: bursts.length,
      firstMs: of('firstReadyMs'),
      makespanMs: of('makespanMs'),
      launchesPerS: of('launchesPerS'),
      failures: clopperPearson(failed, mine.length),
    });
  }
  return out;
}
