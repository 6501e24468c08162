// An A/A along the unit factor, simulated (made-up launches; the subject is
// our own scheduling and judging logic): two byte-identical images compared
// as two cohorts in the design of the user who found the fault (1 session of
// 8 rounds, two runtimes), on a host whose speed drifts (a random walk over
// the launches, as a machine warming or another tenant arriving). The rule's
// own A/A rate, on a host that does not drift, is its nominal 5% give or
// take the simulation's error. Sampled in the order sessions now run (units
// interleaved within rounds, harness/experiment/session-steps.ts), the
// drift adds at most 2.5 points to it; sampled in blocks (every round of one
// cohort, then the other: the order before) it adds 5 points or more, so the
// check has teeth. Seen with 1,000 runs: 5.5% without drift, 6.0%
// interleaved, 12.3% in blocks.
import test from 'ava';
import { factorDifferences } from '../harness/analysis/factor-differences.js';
import type { SampleData, ValueRow } from '../harness/analysis/sample-data.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { armOrder } from '../harness/experiment/arm-order.js';
import { sessionSteps, type RoundStep } from '../harness/experiment/session-steps.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const UNITS = ['img-docker', 'img-oci'];
const PATHS = ['crun', 'runsc'];
const BASE_MS: Record<string, number> = { crun: 120, runsc: 300 };
const SESSIONS = 1;
const ROUNDS = 8;
const RUNS = 300;

/** The old order: each unit's rounds in one block. */
function blockedSteps(session: number): RoundStep[] {
  return UNITS.flatMap((unit) => Array.from({ length: ROUNDS }, (_, i) => ({ unit, phase: 'formal' as const, round: i + 1, of: ROUNDS })));
}

function interleavedSteps(session: number, seed: string): RoundStep[] {
  const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1);
  return sessionSteps(
    { session, cohorts: UNITS.map((cohort) => ({ cohort, rounds, partialRounds: [], completeRounds: 0 })) },
    { preflight: 0, warmupRounds: 0, formalRounds: ROUNDS, units: UNITS, seed },
  );
}

/** Normal deviate from a seeded uniform source (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One run's launches: per session, the steps in order, each step every path in its balanced order; the host's log speed walks `driftPerLaunch` (sd) a launch. */
function simulatedRun(run: number, order: 'interleaved' | 'blocked', driftPerLaunch: number): SampleData {
  const seed = `aa-${run}`;
  const random = seededRandom(`drift-${run}`);
  const values: ValueRow[] = [];
  let drift = 0;
  for (let session = 1; session <= SESSIONS; session++) {
    drift += 0.05 * normal(random); // a session's own start
    const steps = order === 'interleaved' ? interleavedSteps(session, seed) : blockedSteps(session);
    for (const step of steps) {
      const paths = armOrder('balanced', { seed, session, unit: step.unit, phase: step.phase, round: step.round }, PATHS);
      paths.forEach((path, position) => {
        drift += driftPerLaunch * normal(random);
        const ms = BASE_MS[path]! * Math.exp(drift + 0.04 * normal(random));
        values.push({
          launchId: `${seed}.${session}.${step.unit}.${step.round}.${path}`,
          cohort: step.unit,
          path,
          state: 'cold',
          session,
          round: step.round,
          position,
          previousPath: position ? paths[position - 1]! : null,
          readyMs: ms,
          completionMs: ms,
          contentBytes: null,
          responseBytes: null,
        });
      });
    }
  }
  const cells = UNITS.flatMap((cohort) => PATHS.map((path) => ({ cohort, path, state: 'cold', launches: SESSIONS * ROUNDS, failures: 0 })));
  return { phases: [], cells, positions: { [UNITS[0]!]: 2, [UNITS[1]!]: 2 }, failures: [], values, marks: [] };
}

const rules = analysisRules({
  metrics: ['ready'],
  comparisons: [{ factor: 'unit', a: 'img-docker', b: 'img-oci' }],
  bootstrap: { resamples: 200, seed: 'aa' },
});

/** Share of runs whose unit comparison on a path is lower or higher. */
function detectedShare(order: 'interleaved' | 'blocked', driftPerLaunch = 0.006): number {
  let detected = 0;
  let judged = 0;
  for (let run = 0; run < RUNS; run++) {
    const data = simulatedRun(run, order, driftPerLaunch);
    const median = (c: { cohort: string; path: string }) => {
      const xs = data.values.filter((v) => v.cohort === c.cohort && v.path === c.path).map((v) => v.readyMs!);
      return xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    };
    for (const d of factorDifferences(data, rules, median)) {
      judged++;
      if (d.verdict.verdict === 'lower' || d.verdict.verdict === 'higher') detected++;
    }
  }
  return detected / judged;
}

test('two byte-identical images compared along the unit factor on a drifting host: interleaved, the rule keeps its own A/A rate; in blocks, the drift is detected (simulated, 300 runs)', (t) => {
  const still = detectedShare('interleaved', 0);
  const interleaved = detectedShare('interleaved');
  const blocked = detectedShare('blocked');
  t.log(
    `detected: no drift ${(100 * still).toFixed(1)}%, drift interleaved ${(100 * interleaved).toFixed(1)}%, drift in blocks ${(100 * blocked).toFixed(1)}%`,
  );
  t.true(still <= 0.075, `the rule's own A/A rate: ${still}`);
  t.true(interleaved <= still + 0.025, `interleaved: ${interleaved} against ${still}`);
  t.true(blocked >= still + 0.05, `blocked: ${blocked} against ${still} (the drift must show in blocks, or this check has no teeth)`);
});
