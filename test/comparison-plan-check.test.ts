// The plan check (harness/comparison/plan-check.ts), as `pipeline run
// --dry-run` prints it for the published default design: its looks, its error
// rate and its power, against an independent simulation in NumPy and SciPy
// (test/helpers/plan-check-reference.py) on the same variance profiles.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { projectRoot } from '../harness/process/project-root.js';
import { affordableLooks, checkPlan, type PlanCheck, type PlanUnderCheck } from '../harness/comparison/plan-check.js';
import { planCheckInputs } from '../harness/experiment/plan-check-inputs.js';
import { planCheckLines } from '../harness/comparison/plan-check-text.js';
import { lookPlan, sequentialCriticalT } from '../harness/stats/sequential-session-interval.js';
import { median } from '../harness/stats/quantile.js';

const inputs = planCheckInputs(loadPipeline(join(projectRoot(), 'pipeline.yaml'), { knownKinds: knownStageKinds() }), projectRoot())!;
// The design the default run of 2026-12-05 sampled with: 5 rounds of 20 launches a session, looks 3..6, linear spending,
// 360 launches; checked here on the profiles of the run published now.
const published: PlanUnderCheck = { ...inputs.plan, roundsPerSession: 5, launchesPerSession: 100, maxLaunches: 360, plan: lookPlan(3, 6, 1) };

test('the published default design looks once, at session 3: its launch budget pays for no fourth session of 100 launches', (t) => {
  t.deepEqual(affordableLooks(published), { looks: [3], lastLookBy: 'max_launches' });
  t.true(inputs.profiles.length >= 20, `${inputs.profiles.length} profiles`);
});

/** The plan check of `plan` on the published profiles against the NumPy/SciPy simulation of the same boundaries: medians within 2 points, each comparison within 5. */
function agreesWithNumPy(t: ExecutionContext, plan: PlanUnderCheck, check: PlanCheck): void {
  const spec = {
    runs: 40000,
    rounds: plan.roundsPerSession,
    looks: check.looks,
    criticalT: check.looks.map((k) => sequentialCriticalT(plan.plan, k)!.criticalT),
    profiles: check.profiles.map((c) => {
      const p = inputs.profiles.find((x) => x.id === c.id)!;
      return { id: c.id, sessionVar: p.sessionVar, roundVar: p.roundVar, delta: c.delta, fixedSessions: c.fixed.sessions };
    }),
  };
  const reference = JSON.parse(
    execFileSync('python3', [join(projectRoot(), 'test', 'helpers', 'plan-check-reference.py')], {
      input: JSON.stringify(spec),
      maxBuffer: 1 << 24,
    }).toString(),
  ) as { id: string; error: number; power: number[]; fixed: number[] }[];
  const figures: [string, (c: (typeof check.profiles)[number]) => number, (r: (typeof reference)[number]) => number][] = [
    ['error', (c) => c.error, (r) => r.error],
    ['power at delta', (c) => c.power[0], (r) => r.power[0]!],
    ['power at 2 delta', (c) => c.power[1], (r) => r.power[1]!],
    ['fixed power at delta', (c) => c.fixed.power[0], (r) => r.fixed[0]!],
    ['fixed power at 2 delta', (c) => c.fixed.power[1], (r) => r.fixed[1]!],
  ];
  for (const [name, ours, theirs] of figures) {
    const a = median(check.profiles.map(ours));
    const b = median(reference.map(theirs));
    t.true(Math.abs(a - b) <= 0.02, `${name}: ${(100 * a).toFixed(1)}% here, ${(100 * b).toFixed(1)}% in NumPy`);
    // each comparison alone: 4,000 runs against 40,000, within 5 points (about 4.5 standard errors at 50%)
    for (const c of check.profiles) {
      const r = reference.find((x) => x.id === c.id)!;
      t.true(Math.abs(ours(c) - theirs(r)) <= 0.05, `${name}, ${c.id}: ${ours(c)} here, ${theirs(r)} in NumPy`);
    }
  }
}

test('the check of the published default design agrees with an independent NumPy/SciPy simulation within 2 points (medians over the comparisons)', (t) => {
  const check = checkPlan(published, inputs.profiles, 4000);
  const lines = planCheckLines(published, check, inputs.source);
  t.regex(lines[0]!, /one look, after session 3 \(max_launches 360 pays for 3 sessions of 100\)/);
  t.true(check.warnings.some((w) => /never spent/.test(w.text)));
  agreesWithNumPy(t, published, check);
  // what the issue measured: the one look keeps about half of alpha and about half the fixed design's power
  t.true(median(check.profiles.map((c) => c.error)) < 0.035);
  t.true(median(check.profiles.map((c) => c.power[1])) < median(check.profiles.map((c) => c.fixed.power[1])) - 0.1);
});

test("the pipeline's design (2 rounds a session, looks 5..9, spending rho 3) has a budget that pays for every look, keeps its error rate and the fixed design's power, as NumPy/SciPy agree", (t) => {
  t.is(inputs.plan.roundsPerSession, 2);
  t.is(inputs.plan.launchesPerSession, 56, '2 rounds of 2 cohorts x 7 paths x 2 states');
  // the run published with this design profiles every comparison it names (seven paths)
  t.is(inputs.source, 'profiles of reports/lazy-startup/samples.csv');
  t.is(inputs.profiles.length, 44);
  t.deepEqual(affordableLooks(inputs.plan), { looks: [5, 6, 7, 8, 9], lastLookBy: 'max_sessions' });
  const check = checkPlan(inputs.plan, inputs.profiles, 4000);
  const lines = planCheckLines(inputs.plan, check, inputs.source);
  t.regex(lines[0]!, /looks after sessions 5\.\.9, 2 rounds a session, alpha 0\.05, spending alpha·\(k\/9\)\^3 by look k/);
  t.false(check.warnings.some((w) => /never spent/.test(w.text)));
  agreesWithNumPy(t, inputs.plan, check);
  const errors = check.profiles.map((c) => c.error);
  t.true(median(errors) <= 0.055, `median error ${median(errors)}`);
  // on the profiles of the run published with it (7 paths, another host class) the plan has about the fixed design's
  // power at the band, not more: 20% against 23% in its report; the next budget should be checked on them
  const [sequential, fixedPower] = [median(check.profiles.map((c) => c.power[0])), median(check.profiles.map((c) => c.fixed.power[0]))];
  t.true(sequential >= fixedPower - 0.05, `power at δ ${sequential} against the fixed design's ${fixedPower}`);
  // against the published plan: power at the band at least three times as often
  t.true(median(check.profiles.map((c) => c.power[0])) > 3 * median(checkPlan(published, inputs.profiles, 2000).profiles.map((c) => c.power[0])));
});

test('a plan whose boundaries end where its budget ends is not warned about unspent error, and matches its fixed design (made-up profile)', (t) => {
  const plan: PlanUnderCheck = { ...inputs.plan, plan: lookPlan(3, 3, 1), maxLaunches: 300 };
  const profile = { id: 'made-up', sessionVar: 0.0004, roundVar: 0.02, medianBMs: 500 };
  const check = checkPlan(plan, [profile], 3000);
  t.deepEqual(check.warnings, []);
  const c = check.profiles[0]!;
  t.true(Math.abs(c.error - 0.05) < 0.015, `error ${c.error}`);
  t.true(Math.abs(c.power[1] - c.fixed.power[1]) <= 0.02, `${c.power[1]} against ${c.fixed.power[1]}`);
});
