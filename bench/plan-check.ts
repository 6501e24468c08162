// Benchmark (not a test): the plan check of the default experiment's
// design.adaptive, as `pipeline run --dry-run` prints it, and of other plans
// given on the command line, with the published samples' variance profiles.
// Run: node dist/bench/plan-check.js [ROUNDS:MIN..MAX:BUDGET ...] [--runs N]
//   e.g. 5:3..6:360 (the published plan), 2:4..9:360; a fifth part :RHO sets power spending alpha t^RHO (default 1; the pipeline's own plan: its spending_rho)
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { projectRoot } from '../harness/process/project-root.js';
import { checkPlan } from '../harness/comparison/plan-check.js';
import { planCheckLines } from '../harness/comparison/plan-check-text.js';
import { planCheckInputs } from '../harness/experiment/plan-check-inputs.js';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 4000;
const plans = runsAt >= 0 ? args.filter((_, i) => i !== runsAt && i !== runsAt + 1) : args;
const started = Date.now();
const config = loadPipeline('pipeline.yaml', { knownKinds: knownStageKinds() });
const inputs = planCheckInputs(config, projectRoot())!;
const variants = plans.length
  ? plans
  : [
      `${inputs.plan.roundsPerSession}:${inputs.plan.plan.minSessions}..${inputs.plan.plan.maxSessions}:${inputs.plan.maxLaunches}:${inputs.plan.plan.spending.kind === 'power' ? inputs.plan.plan.spending.rho : 1}`,
    ];
for (const v of variants) {
  const m = /^(\d+):(\d+)\.\.(\d+):(\d+)(?::([\d.]+))?$/.exec(v);
  if (!m) throw new Error(`a plan is ROUNDS:MIN..MAX:BUDGET, got ${v}`);
  const [rounds, min, max, budget] = m.slice(1, 5).map(Number) as [number, number, number, number];
  const rho = m[5] ? Number(m[5]) : 1;
  const perRound = inputs.plan.launchesPerSession / inputs.plan.roundsPerSession;
  const plan = {
    ...inputs.plan,
    roundsPerSession: rounds,
    launchesPerSession: perRound * rounds,
    maxLaunches: budget,
    plan: { ...inputs.plan.plan, minSessions: min, maxSessions: max, spending: { kind: 'power' as const, rho } },
  };
  console.log(`-- ${v}`);
  console.log(planCheckLines(plan, checkPlan(plan, inputs.profiles, runs), inputs.source).join('\n'));
}
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
