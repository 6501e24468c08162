// Benchmark (not a test): coverage of the published 95% intervals and the
// rate of "detected" (the A/A false-positive rate at effect 0, power at 2, 5,
// 10 and 20% of the median) by simulation with a known truth, for K = 3, 5
// and 10 sessions x 10 or 20 rounds, with variance components like those of
// the published default run (bench/published-profile.ts). Seeded: the same
// arguments print the same table.
// Run: npx tsc -p . && node dist/bench/coverage-table.js [EXPERIMENTS] [RESAMPLES] [--csv FILE]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { simulateGrid, type SimulationCell } from '../harness/stats/coverage-simulation.js';
import { smallestDetectableDifference } from '../harness/stats/power.js';
import { differenceVariances } from '../harness/stats/simulation-profile.js';
import { benchProfiles, rateWithInterval } from './published-profile.js';

const args = process.argv.slice(2);
const csvAt = args.indexOf('--csv');
const csvFile = csvAt >= 0 ? args[csvAt + 1] : undefined;
const numbers = args.filter((_, i) => csvAt < 0 || (i !== csvAt && i !== csvAt + 1)).map(Number);
const experiments = numbers[0] ?? 1000;
const resamples = numbers[1] ?? 2000;
const grid = { sessions: [3, 5, 10], rounds: [10, 20], effects: [0, 0.02, 0.05, 0.1, 0.2] };

const runs = benchProfiles(join(projectRoot(), 'reports', 'lazy-startup'));

const pct = (x: number): string => (100 * x).toFixed(1);
const ci = rateWithInterval;
const csv: string[] = ['profile,sessions,rounds,effect,experiments,bootstrap_covers,t_covers,detected,resamples'];
const started = Date.now();
for (const run of runs) {
  const p = run.profile;
  const v = differenceVariances(p);
  console.log(
    `\nprofile ${run.id}: log-scale sd session ${p.sessionSd.toFixed(4)} round ${p.roundSd.toFixed(4)}, corr session ${p.sessionCorr.toFixed(3)} round ${p.roundCorr.toFixed(3)}`,
  );
  console.log(`difference (log a - log b): session sd ${Math.sqrt(v.sessionVar).toFixed(4)}, round sd ${Math.sqrt(v.roundVar).toFixed(4)}`);
  console.log(`${experiments} experiments per cell, ${resamples} resamples, 95% intervals; rates in % with Clopper-Pearson 95% intervals\n`);
  const cells = simulateGrid(p, grid, { experiments, resamples, confidence: 0.95, seed: `coverage|${run.id}` });
  const byConfig = new Map<string, SimulationCell[]>();
  for (const c of cells) {
    const k = `${c.sessions}x${c.rounds}`;
    byConfig.set(k, [...(byConfig.get(k) ?? []), c]);
    csv.push([JSON.stringify(run.id), c.sessions, c.rounds, c.effect, c.experiments, c.bootstrapCovers, c.tCovers, c.detected, resamples].join(','));
  }
  console.log('| K x rounds | bootstrap covers | t covers | A/A detected | power 2% | power 5% | power 10% | power 20% | planned 80% effect |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [k, cs] of byConfig) {
    const n = cs.reduce((s, c) => s + c.experiments, 0);
    const boot = cs.reduce((s, c) => s + c.bootstrapCovers, 0);
    const t = cs.reduce((s, c) => s + c.tCovers, 0);
    const power = cs.filter((c) => c.effect > 0).map((c) => ci(c.detected, c.experiments));
    const mde = smallestDetectableDifference(v, cs[0]!.sessions, cs[0]!.rounds, 0.95);
    console.log(
      `| ${k} | ${ci(boot, n)} | ${ci(t, n)} | ${ci(cs[0]!.detected, cs[0]!.experiments)} | ${power.join(' | ')} | ${mde === null ? '-' : `${pct(Math.expm1(mde))}%`} |`,
    );
  }
}
console.log(`\ncoverage over all ${grid.effects.length} effects of a row; wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (csvFile) writeFileSync(csvFile, csv.join('\n') + '\n');
