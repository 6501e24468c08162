// An A/A of bursts, simulated (made-up launches; the subject is our own
// scheduling and judging logic): two names of one path at N = 16, in the
// published design (3 sessions of 4 rounds, the two arms in the model's
// balanced order each round). Every burst's 16 launches share a burst effect
// (they contend with each other), later slots start later, sessions differ
// and the host drifts a little. The one judge (analysis/difference-results.ts,
// the rule every experiment uses) must call the two names different in at
// most 5% of 200 runs.
import test from 'ava';
import { differenceResults } from '../harness/analysis/difference-results.js';
import { recordVerdict } from '../harness/analysis/difference-record.js';
import type { SampleData, ValueRow } from '../harness/analysis/sample-data.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { armOrder } from '../harness/experiment/arm-order.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const ARMS = ['crun-n16', 'crun-twin-n16'];
const N = 16;
const SESSIONS = 3;
const ROUNDS = 4;
const RUNS = 200;

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function simulatedRun(run: number, factorOfFirst = 1): SampleData {
  const random = seededRandom(`burst-aa-${run}`);
  const values: ValueRow[] = [];
  let drift = 0;
  for (let session = 1; session <= SESSIONS; session++) {
    const sessionEffect = 0.1 * normal(random);
    for (let round = 1; round <= ROUNDS; round++) {
      const arms = armOrder('balanced', { seed: `aa-${run}`, session, unit: 'shell', phase: 'formal', round }, ARMS);
      arms.forEach((arm, position) => {
        drift += 0.01 * normal(random);
        const burstEffect = 0.15 * normal(random);
        for (let slot = 0; slot < N; slot++) {
          const ms = (arm === ARMS[0] ? factorOfFirst : 1) * 400 * Math.exp(sessionEffect + drift + burstEffect + 0.01 * slot + 0.2 * normal(random));
          values.push({
            launchId: `aa.${run}.${session}.${round}.${arm}.k${slot}`,
            cohort: 'shell',
            path: arm,
            state: 'warm',
            session,
            round,
            position,
            previousPath: position ? arms[position - 1]! : null,
            readyMs: ms,
            completionMs: ms,
            contentBytes: null,
            responseBytes: null,
          });
        }
      });
    }
  }
  const cells = ARMS.map((path) => ({ cohort: 'shell', path, state: 'warm', launches: SESSIONS * ROUNDS * N, failures: 0 }));
  return { phases: [], cells, positions: { shell: 2 }, failures: [], values, marks: [] };
}

test('two names of one path at N = 16 are detected in at most 5% of 200 simulated runs of the published design (made-up bursts)', (t) => {
  const comparisons = [{ a: ARMS[0]!, b: ARMS[1]! }];
  const rules = analysisRules({ metrics: ['ready'], comparisons, bootstrap: { resamples: 200, seed: 'burst-aa' } });
  const detectedIn = (factorOfFirst: number, runs: number): number => {
    let detected = 0;
    for (let run = 0; run < runs; run++) {
      const [d] = differenceResults(simulatedRun(run, factorOfFirst), rules, comparisons);
      const v = recordVerdict(d!, 400, rules.practical).verdict;
      if (v === 'lower' || v === 'higher') detected++;
    }
    return detected;
  };
  const aa = detectedIn(1, RUNS);
  // the check has teeth: the same rule and design see a true ×1.5 in most runs
  const ab = detectedIn(1.5, 40);
  t.log(`A/A detected in ${aa} of ${RUNS} runs (${((100 * aa) / RUNS).toFixed(1)}%); a true ×1.5 in ${ab} of 40`);
  t.true(aa / RUNS <= 0.05, `${aa} of ${RUNS}`);
  t.true(ab >= 20, `a true ×1.5 detected in ${ab} of 40`);
});
