// Synthetic formal sample rows for tests and benchmarks: seeded log-normal
// Ready times per path, Completion a little later, fixed byte counts.
import { seededRandom, shuffled } from '../stats/seeded-random.js';
import { outcomeOf, type SampleRow } from '../db/sample-row.js';

export interface SyntheticDesign {
  experiment: string;
  cohorts: string[];
  /** Median Ready per path, ms. */
  paths: Record<string, number>;
  states: ('cold' | 'warm')[];
  rounds: number;
  seed: string;
  /** Every failEvery-th launch fails (0: none). */
  failEvery?: number;
}

export function syntheticSamples(d: SyntheticDesign): SampleRow[] {
  const random = seededRandom(d.seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const rows: SampleRow[] = [];
  let launch = 0;
  for (const cohort of d.cohorts) {
    for (let round = 1; round <= d.rounds; round++) {
      const order = shuffled(Object.keys(d.paths), random);
      order.forEach((path, orderInRound) => {
        for (const state of d.states) {
          launch++;
          const failed = d.failEvery ? launch % d.failEvery === 0 : false;
          const base = d.paths[path]! * (state === 'warm' ? 0.4 : 1);
          const readyMs = Math.round(base * Math.exp(0.1 * normal()) * 1000) / 1000;
          const contentBytes = state === 'warm' ? 0 : Math.round(d.paths[path]! * 100000);
          rows.push({
            experiment: d.experiment,
            cohort,
            path,
            state,
            phase: 'formal',
            round,
            order_in_round: orderInRound,
            launch_id: `L${String(launch).padStart(7, '0')}`,
            session: 1,
            host: 'unknown',
            ready_ms: failed ? null : readyMs,
            completion_ms: failed ? null : Math.round((readyMs + 5 + random()) * 1000) / 1000,
            content_bytes: contentBytes,
            response_bytes: contentBytes + 700,
            exit_code: failed ? 1 : 0,
            signal: null,
            ...outcomeOf(!failed, 'exit code 1'),
            started_at: '2026-01-01T00:00:00.000Z',
            user_cpu_ms: null,
            sys_cpu_ms: null,
            max_rss_kb: null,
          });
        }
      });
    }
  }
  return rows;
}
