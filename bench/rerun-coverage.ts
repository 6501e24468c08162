// Benchmark (not a test): coverage of the rerun interval
// (harness/stats/rerun-interval.ts) over series of 6 runs with run-level
// drift, by simulation with a known truth. Each run: the default design
// (3 sessions × 10 rounds, two paths), the typical variance profile of the
// published run's Ready differences (bench/published-profile.ts), and a run
// offset: every value of the run × exp(common + own), common to both paths
// (sd commonSd) and the path's own (sd ownSd). For run j = 1..5 of a series,
// the rerun interval of run j — its 95% two-level bootstrap interval widened
// by rerun-interval.ts — is checked against run j+1's estimate:
//   one run:    the between-run figure is the host kind's (host-kind-drift.ts),
//               as a report of a single run assumes it;
//   replicates: the figure is measured on runs 1..j (j >= 2), REML over
//               runs → sessions → rounds (harness/analysis/replicate-analysis.ts),
//               pooled with the host kind's (host-kind-drift.ts pooledRunLogVariance)
//               as the analysis does.
// Seeded: the same arguments print the same table.
// Run: npx tsc -p . && node dist/bench/rerun-coverage.js [SERIES] [RESAMPLES]
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import type { ReplicateRun } from '../harness/analysis/replicate-runs.js';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';
import { simulateExperiment } from '../harness/stats/coverage-simulation.js';
import { hostKindDrift, pooledRunLogVariance } from '../harness/stats/host-kind-drift.js';
import { median } from '../harness/stats/quantile.js';
import { rerunInterval } from '../harness/stats/rerun-interval.js';
import { seededRandom, type Random } from '../harness/stats/seeded-random.js';
import { twoLevelBootstrap, type PairedSession } from '../harness/stats/two-level-bootstrap.js';
import { publishedProfiles, typicalProfile } from './published-profile.js';

const args = process.argv.slice(2).map(Number);
const seriesCount = args[0] ?? 400;
const resamples = args[1] ?? 1000;
const RUNS = 6;
const design = { sessions: 3, rounds: 10 };
const profile = typicalProfile(publishedProfiles(join(projectRoot(), 'reports', 'lazy-startup')));

interface Scenario {
  id: string;
  commonSd: number;
  ownSd: number;
}
const v = hostKindDrift.runLogVariance;
const vr = hostKindDrift.ratioRunLogVariance;
// var(common + own) = v and var(own_a − own_b) = vr, as the host-kind figures measured them
const scenarios: Scenario[] = [
  { id: 'as measured', commonSd: Math.sqrt(v - vr / 2), ownSd: Math.sqrt(vr / 2) },
  { id: 'twice as measured', commonSd: Math.sqrt(2 * (v - vr / 2)), ownSd: Math.sqrt(vr) },
  { id: 'path-specific (stress)', commonSd: 0, ownSd: Math.sqrt(v) },
];
const effects = [0.1, 1.0];

function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function driftRun(random: Random, s: Scenario, effect: number): PairedSession[] {
  const common = s.commonSd * normal(random);
  const fa = Math.exp(common + s.ownSd * normal(random));
  const fb = Math.exp(common + s.ownSd * normal(random));
  return simulateExperiment(profile, { ...design, effect }, random).map((x) => ({
    session: x.session,
    rounds: x.rounds.map((r) => ({ a: r.a.map((y) => y * fa), b: r.b.map((y) => y * fb) })),
  }));
}

function asReplicate(id: string, sessions: readonly PairedSession[]): ReplicateRun {
  const rows: ReplicateRun['rows'] = [];
  for (const s of sessions) {
    s.rounds.forEach((r, i) => {
      for (const [path, vs] of [
        ['a', r.a],
        ['b', r.b],
      ] as const)
        for (const y of vs) rows.push({ cohort: 'c', path, state: 'cold', session: s.session, round: i + 1, readyMs: y, completionMs: null });
    });
  }
  return { id, host: 'h', rows };
}

console.log(
  `rerun-interval coverage: ${seriesCount} series × ${RUNS} runs, ${design.sessions} sessions × ${design.rounds} rounds, ${resamples} resamples; ` +
    `profile session sd ${profile.sessionSd.toFixed(3)}, round sd ${profile.roundSd.toFixed(3)} (log); host-kind figures v ${v}, r ${vr}`,
);
console.log('| drift | effect | mode | checks | inside | coverage [95% CI] | mean half-width / 95% half-width |');
console.log('|---|---|---|---|---|---|---|');
const started = performance.now();
for (const s of scenarios) {
  for (const effect of effects) {
    const random = seededRandom(`rerun|${s.id}|${effect}`);
    const tally = { one: { n: 0, inside: 0, widen: 0 }, rep: { n: 0, inside: 0, widen: 0 } };
    for (let k = 0; k < seriesCount; k++) {
      const runs = Array.from({ length: RUNS }, () => driftRun(random, s, effect));
      const fits = runs.map((r, j) => twoLevelBootstrap(r, { resamples, confidence: 0.95, seed: `${k}|${j}` }));
      for (let j = 0; j < RUNS - 1; j++) {
        const f = fits[j]!;
        const next = fits[j + 1]!.observed!;
        const aMs = median(runs[j]!.flatMap((x) => x.rounds.flatMap((r) => r.a)));
        const bMs = median(runs[j]!.flatMap((x) => x.rounds.flatMap((r) => r.b)));
        const half95 = (f.high! - f.low!) / 2;
        const check = (t: { n: number; inside: number; widen: number }, runLogVariance: number, ratioRunLogVariance: number): void => {
          const r = rerunInterval({ observedMs: f.observed, lowMs: f.low, highMs: f.high, confidence: 0.95, aMs, bMs, runLogVariance, ratioRunLogVariance })!;
          t.n++;
          if (next >= r.lowMs && next <= r.highMs) t.inside++;
          t.widen += (r.highMs - r.lowMs) / 2 / half95;
        };
        check(tally.one, v, vr);
        if (j >= 1) {
          const pooled = analyzeReplicates(
            runs.slice(0, j + 1).map((r, i) => asReplicate(`r${i}`, r)),
            [{ a: 'a', b: 'b' }],
            ['ready'],
            0.95,
          );
          const df = pooled.driftDegreesOfFreedom;
          check(
            tally.rep,
            pooledRunLogVariance(pooled.runLogVariance ?? 0, df),
            pooledRunLogVariance(pooled.ratioRunLogVariance ?? 0, df, { ...hostKindDrift, runLogVariance: vr }),
          );
        }
      }
    }
    for (const [mode, t] of [
      ['one run (host-kind figure)', tally.one],
      ['replicates (runs 1..j, j ≥ 2)', tally.rep],
    ] as const) {
      const ci = clopperPearson(t.inside, t.n);
      console.log(
        `| ${s.id} | ×${(1 + effect).toFixed(1)} | ${mode} | ${t.n} | ${t.inside} | ${((100 * t.inside) / t.n).toFixed(1)}% [${(100 * ci.low).toFixed(1)}, ${(100 * ci.high).toFixed(1)}] | ${(t.widen / t.n).toFixed(2)} |`,
      );
    }
  }
}
console.log(`ran in ${((performance.now() - started) / 1000).toFixed(0)} s`);
