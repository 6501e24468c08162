import test from 'ava';
import { execFileSync } from 'node:child_process';
import { optimalRoundsPerSession, planHalfWidth, planNextRun, type PlanCell } from '../harness/stats/next-run-plan.js';
import { smallestDetectableDifference } from '../harness/stats/power.js';
import { studentTQuantile } from '../harness/stats/student-t.js';
import type { VarianceComponents } from '../harness/stats/variance-components.js';

const comp = (betweenVar: number, withinVar: number, mean = 1000): VarianceComponents => ({
  sessions: 3,
  values: 30,
  mean,
  betweenVar,
  withinVar,
  betweenShare: betweenVar / (betweenVar + withinVar),
  dominant: betweenVar / 3 > withinVar / 30 ? 'sessions' : 'rounds',
});

// Debian's python3 with python3-scipy (installed by setup.sh) is the independent reference.
const PYTHON = '/usr/bin/python3';
const python = (script: string, input: unknown): unknown => JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(input) }).toString());

test('Student t quantiles agree with SciPy', (t) => {
  const cases = [1, 2, 3, 5, 9, 29, 100].flatMap((df) => [0.9, 0.975, 0.995].map((p) => ({ df, p })));
  const ref = python(
    'import json,sys; from scipy.stats import t; print(json.dumps([t.ppf(c["p"], c["df"]) for c in json.load(sys.stdin)]))',
    cases,
  ) as number[];
  cases.forEach((c, i) => {
    const q = studentTQuantile(c.p, c.df);
    t.true(Math.abs(q - ref[i]!) < 1e-8 * ref[i]!, `df=${c.df} p=${c.p}: ${q} vs ${ref[i]}`);
  });
});

test('the optimal rounds per session follow Kalibera and Jones: ceil(sqrt(c2 T1^2 / (c1 T2^2)))', (t) => {
  // sqrt(100 000 * 4 / (500 * 1)) = sqrt(800) = 28.28 -> 29
  t.is(optimalRoundsPerSession(comp(1, 4), { sessionStartMs: 100_000, launchMs: 100, launchesPerRound: 5 }), 29);
});

test('no between-session variance puts every repetition into rounds', (t) => {
  t.is(optimalRoundsPerSession(comp(0, 4), { sessionStartMs: 1000, launchMs: 1, launchesPerRound: 1 }), Infinity);
});

test('the planned half width is the t interval of the mean of sessions x rounds', (t) => {
  // t(0.975, 2) * sqrt((25 + 400 / 10) / 3)
  const h = planHalfWidth(comp(25, 400), 3, 10, 0.95);
  t.true(Math.abs(h - 4.302652729911275 * Math.sqrt(65 / 3)) < 1e-7, String(h));
});

const cells: PlanCell[] = [
  { id: 'shell/docker/cold/ready', components: comp(900, 4000, 2300) },
  { id: 'shell/lazy/cold/ready', components: comp(4, 400, 180) },
  { id: 'numpy/oci-full/cold/ready', components: comp(40_000, 90_000, 9000) },
];
const costs = { sessionStartMs: 240_000, launchMs: 2000, launchesPerRound: 6 };
const target = { confidence: 0.95, relativeHalfWidth: 0.02 };
const limits = { minSessions: 3, maxSessions: 40, maxRounds: 100 };

test('the next-run plan is the least-cost sessions x rounds that a brute-force SciPy search finds', (t) => {
  const plan = planNextRun(cells, costs, target, limits);
  const ref = python(
    `
import json, sys, math
from scipy.stats import t
d = json.load(sys.stdin)
c, L, T = d['costs'], d['limits'], d['target']
best = None
for r in range(1, L['maxRounds'] + 1):
    for k in range(L['minSessions'], L['maxSessions'] + 1):
        ok = all(t.ppf((1 + T['confidence']) / 2, k - 1) * math.sqrt((x['b'] + x['w'] / r) / k) <= T['relativeHalfWidth'] * x['m'] for x in d['cells'])
        if ok:
            cost = k * (c['sessionStartMs'] + r * c['launchMs'] * c['launchesPerRound'])
            if best is None or cost < best[2] or (cost == best[2] and k < best[0]):
                best = (k, r, cost)
            break
print(json.dumps(best))
`,
    { costs, limits, target, cells: cells.map((c) => ({ b: c.components.betweenVar, w: c.components.withinVar, m: c.components.mean })) },
  ) as [number, number, number];
  t.true(plan.reachable);
  t.deepEqual([plan.sessions, plan.rounds, plan.costMs], ref);
  for (const c of plan.cells) t.true(c.halfWidthMs <= c.targetMs, c.id);
});

test('a costlier session start moves the plan toward more rounds per session', (t) => {
  const cheap = planNextRun(cells, { ...costs, sessionStartMs: 10_000 }, target, limits);
  const dear = planNextRun(cells, { ...costs, sessionStartMs: 2_000_000 }, target, limits);
  t.true(dear.rounds > cheap.rounds, `${cheap.sessions}x${cheap.rounds} vs ${dear.sessions}x${dear.rounds}`);
});

test('a cell without a between-session estimate is left unplanned and named', (t) => {
  const one: VarianceComponents = { ...comp(0, 100), sessions: 1, betweenVar: null, dominant: null };
  const plan = planNextRun([{ id: 'shell/docker/warm/ready', components: one }], costs, target, limits);
  t.false(plan.reachable);
  t.deepEqual(plan.unplanned, ['shell/docker/warm/ready']);
});

test('a target no plan within the limits reaches is reported unreachable', (t) => {
  const plan = planNextRun(cells, costs, { confidence: 0.95, relativeHalfWidth: 0.0001 }, limits);
  t.false(plan.reachable);
});

test('each planned cell states the smallest difference, from an independent cell like it, that the planned design detects 80% of the time', (t) => {
  const plan = planNextRun(cells, costs, target, limits);
  for (const c of plan.cells) {
    const components = cells.find((x) => x.id === c.id)!.components;
    const expected = smallestDetectableDifference(
      { sessionVar: 2 * components.betweenVar!, roundVar: 2 * components.withinVar! },
      plan.sessions,
      plan.rounds,
      target.confidence,
    );
    t.is(c.smallestDetectableMs, expected, c.id);
    t.true(c.smallestDetectableMs! > c.halfWidthMs, `${c.id}: 80% power needs more than the half width`);
  }
});

test('with a rounds multiple the plan is the least-cost design among whole repeats of a balanced order', (t) => {
  const free = planNextRun(cells, costs, target, limits);
  const balanced = planNextRun(cells, costs, target, { ...limits, roundsMultiple: 10 });
  t.true(balanced.reachable);
  t.is(balanced.rounds % 10, 0);
  t.true(balanced.costMs >= free.costMs);
  // the least cost among the multiples of 10, by brute force over the same limits
  let best = Infinity;
  for (let r = 10; r <= limits.maxRounds; r += 10) {
    const one = planNextRun(cells, costs, target, { ...limits, maxRounds: r, roundsMultiple: r });
    if (one.reachable && one.rounds === r) best = Math.min(best, one.costMs);
  }
  t.is(balanced.costMs, best);
});
