// Benchmark (not a test): calibration of the sequential rule
// (harness/analysis/sequential-decision.ts) by simulation with a known truth.
// One simulated experiment draws up to maxSessions sessions of `rounds` paired
// rounds with the variance components of a published profile
// (bench/published-profile.ts, harness/stats/coverage-simulation.ts), looks
// after every session from minSessions on, and stops at the first decision
// (lower, higher, equivalent within +-delta) or at the budget (undecided).
// Counted per true effect: each outcome, coverage of the true log ratio by the
// interval at the stopping look, and the sessions used; against the fixed
// design of fixedSessions x rounds (its launches and, at effects >= 10%,
// whether it decides). Seeded: the same arguments print the same table.
// Run: npx tsc -p . && node dist/bench/sequential-table.js [EXPERIMENTS] [SPENDING] [ROUNDS]
//   SPENDING: power:1 (the default plan's), obrien-fleming, pocock, power:RHO
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { sequentialDecision } from '../harness/analysis/sequential-decision.js';
import { simulateExperiment } from '../harness/stats/coverage-simulation.js';
import { median } from '../harness/stats/quantile.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import type { PairedSession } from '../harness/stats/two-level-bootstrap.js';
import { sessionTInterval } from '../harness/stats/session-t-interval.js';
import { defaultSequentialPlan, planBoundaries, type SequentialPlan } from '../harness/stats/sequential-session-interval.js';
import type { SpendingFunction } from '../harness/stats/alpha-spending.js';
import { differenceVariances } from '../harness/stats/simulation-profile.js';
import { benchProfiles, rateWithInterval } from './published-profile.js';

const args = process.argv.slice(2);
const experiments = Number(args[0] ?? 2000);
const spendingArg = args[1] ?? 'power:1';
const rounds = Number(args[2] ?? 20);
const spending: SpendingFunction = spendingArg.startsWith('power:')
  ? { kind: 'power', rho: Number(spendingArg.slice(6)) }
  : spendingArg === 'pocock'
    ? { kind: 'pocock' }
    : { kind: 'obrien-fleming' };
const plan: SequentialPlan = { ...defaultSequentialPlan, spending };
const delta = 0.05;
const fixedSessions = 10;
const effects = [0, 0.02, 0.05, 0.1, 0.2, -0.1];

const runs = benchProfiles(join(projectRoot(), 'reports', 'lazy-startup'));

const pct = (x: number): string => (100 * x).toFixed(1);
const ci = rateWithInterval;
const meanLogRatio = (s: PairedSession): number => s.rounds.reduce((sum, r) => sum + Math.log(r.a[0]!) - Math.log(r.b[0]!), 0) / s.rounds.length;

const started = Date.now();
const b = planBoundaries(plan);
console.log(
  `plan: looks after sessions ${plan.minSessions}..${plan.maxSessions}, alpha ${plan.alpha}, ${spendingArg} spending (calibrated spending level ${b.spendingAlpha.toFixed(4)}); ${rounds} rounds a session; delta ${pct(delta)}%`,
);
console.log(`t boundaries: ${b.criticalT.map((t, i) => `${plan.minSessions + i}: ${t.toFixed(2)}`).join(', ')}`);
for (const run of runs) {
  const p = run.profile;
  const v = differenceVariances(p);
  console.log(`\nprofile ${run.id}: difference (log a - log b) session sd ${Math.sqrt(v.sessionVar).toFixed(4)}, round sd ${Math.sqrt(v.roundVar).toFixed(4)}`);
  console.log(`${experiments} experiments per effect; rates in % with Clopper-Pearson 95% intervals\n`);
  console.log(
    '| true effect | lower | higher | detected (lower or higher) | equivalent | undecided | covers at stop | median sessions | median launches (share of fixed 10x20: 400) | fixed 10x20 decides | same decision as fixed, where it decides |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const effect of effects) {
    const count = { lower: 0, higher: 0, equivalent: 0, undecided: 0 };
    let covers = 0;
    let fixedDecides = 0;
    let agrees = 0;
    const used: number[] = [];
    const truth = Math.log(1 + effect);
    for (let i = 0; i < experiments; i++) {
      const data = simulateExperiment(p, { sessions: plan.maxSessions, rounds, effect }, seededRandom(`sequential|${run.id}|${effect}|${i}`));
      const per = data.map(meanLogRatio);
      let k = plan.minSessions;
      let d = sequentialDecision(per.slice(0, k), plan, delta);
      while (!d.stop) d = sequentialDecision(per.slice(0, ++k), plan, delta);
      count[d.verdict]++;
      if (d.interval && d.interval.low <= truth && truth <= d.interval.high) covers++;
      used.push(d.sessions);
      const fixed = sessionTInterval(per.slice(0, fixedSessions), 0.95)!;
      if (fixed.low > 0 || fixed.high < 0) {
        fixedDecides++;
        if (d.verdict === (fixed.low > 0 ? 'higher' : 'lower')) agrees++;
      }
    }
    const n = experiments;
    const medianSessions = median(used);
    console.log(
      `| ${effect >= 0 ? '+' : ''}${pct(effect)}% | ${ci(count.lower, n)} | ${ci(count.higher, n)} | ${ci(count.lower + count.higher, n)} | ${ci(count.equivalent, n)} | ${ci(count.undecided, n)} | ${ci(covers, n)} | ${medianSessions} | ${medianSessions * rounds * 2} (${pct((medianSessions * rounds) / (fixedSessions * rounds))}%) | ${ci(fixedDecides, n)} | ${fixedDecides ? ci(agrees, fixedDecides) : '-'} |`,
    );
  }
}
console.log(`\nfixed 10x20: the between-session t interval (95%) of the first 10 sessions of the same simulated data; launches count both paths`);
console.log(`\nwall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
