// Where Ready ratios hold across host classes (issue 43, analysis/cross-class.ts).
// Made-up runs on three classes with a known class factor per canary piece and
// per path: a test of our own rule, with NumPy/SciPy as the reference for the
// spread and the interval.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { crossClass, crossClassFactor, differenceKeyOf, type OwnRun, type PublishedRun } from '../harness/analysis/cross-class.js';
import { heldAcrossClasses } from '../harness/report/rerun-wording.js';

const python = (script: string, input: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input) }).toString());

const baseCanary = { cpu: 30, mem: 34, fs: 4, wake: 63, exec: 0.6 };
const scaled = (by: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(baseCanary).map(([k, v]) => [k, v * (by[k] ?? 1)]));
const paths = { docker: 2000, lazy: 200, gvisor: 900 };
const cells = (by: Record<string, number>, cohort = 'shell', state = 'cold'): Map<string, number> =>
  new Map(Object.entries(paths).map(([p, v]) => [`${cohort}|${p}|${state}`, v * (by[p] ?? 1)]));
const directions = (d: Record<string, -1 | 0 | 1>): Map<string, -1 | 0 | 1> => new Map(Object.entries(d).map(([k, v]) => [k, v]));
const k = (a: string, b: string): string => differenceKeyOf('shell', 'cold', a, b);

// class A (the published one, four runs: the class rule's spread rests on them), class B (mem ×5.5, exec ×5.3: PTI on)
// moves docker ×1.9 and lazy ×1.2; class C (cpu, mem ×1.8) is this run's
const dirs = { [k('docker', 'lazy')]: 1, [k('docker', 'gvisor')]: 1, [k('gvisor', 'lazy')]: 1 } as Record<string, -1 | 0 | 1>;
const aRun = (id: string, key: string, cpu: number): PublishedRun => ({
  id,
  sampleKey: key,
  canary: scaled({ cpu }),
  p50: cells({}),
  direction: directions(dirs),
});
const runs: PublishedRun[] = [
  aRun('2026-12-04-a1', 'k0', 1),
  aRun('2026-12-04-a2', 'k0', 1.01),
  aRun('2026-12-04-a3', 'k0', 0.99),
  aRun('2026-12-05-a', 'k1', 1.005),
  {
    id: '2026-12-06-b',
    sampleKey: 'k1',
    canary: scaled({ mem: 5.5, exec: 5.3, fs: 2.2 }),
    p50: cells({ docker: 1.9, lazy: 1.2 }),
    direction: directions({ ...dirs, [k('gvisor', 'lazy')]: 0 }),
  },
  { id: '2026-12-06-nocanary', sampleKey: 'k1', canary: null, p50: cells({}), direction: directions(dirs) },
];
const own: OwnRun = { sampleKey: 'k2', canary: scaled({ cpu: 1.8, mem: 1.8 }), p50: cells({ gvisor: 1.05 }), direction: directions(dirs) };

test('made-up runs on three classes: the classes, the between-class spread from the same-key pair, and where each ratio held', (t) => {
  const r = crossClass(own, runs)!;
  t.deepEqual(r.otherClassRuns.sort(), ['2026-12-05-a', '2026-12-06-b'], 'the newest run of each other class; one without a canary is not placed');
  // the same-key pair a/b: docker/lazy moved ×1.9/1.2, docker/gvisor ×1.9, gvisor/lazy ×1/1.2
  const ref = python(
    [
      'import json, sys, numpy as np',
      'from scipy import stats',
      'd = np.log(np.array(json.load(sys.stdin)))',
      'sd = float(np.sqrt(np.sum(d ** 2) / (2 * len(d))))',
      'print(json.dumps([sd, float(np.exp(stats.t.ppf(0.975, len(d)) * np.sqrt(2) * sd))]))',
    ].join('\n'),
    [1.9 / 1.2, 1.9, 1 / 1.2],
  ) as [number, number];
  t.is(r.between?.df, 3);
  t.true(Math.abs(r.between!.logSd - ref[0]) < 1e-12, `${r.between!.logSd} vs NumPy ${ref[0]}`);
  t.true(Math.abs(crossClassFactor(r.between!) - ref[1]) < 1e-9, `${crossClassFactor(r.between!)} vs SciPy ${ref[1]}`);
  const byKey = (a: string, b: string) => r.differences.find((d) => d.a === a && d.b === b)!;
  // docker/lazy: ×10 here, ×10 on A, ×15.8 on B: both within the band (f ≈ 4.4 for this spread), same direction
  t.deepEqual([byKey('docker', 'lazy').classes, byKey('docker', 'lazy').holds], [3, 3]);
  // gvisor/lazy: class B's own verdict gave no direction: not held there
  t.deepEqual([byKey('gvisor', 'lazy').classes, byKey('gvisor', 'lazy').holds], [3, 2]);
  t.is(byKey('gvisor', 'lazy').others.find((o) => o.run === '2026-12-06-b')!.holds, false);
});

test('without a canary, or with no other class and no same-key pair, nothing is said', (t) => {
  t.is(crossClass({ ...own, canary: null }, runs), null);
  t.is(
    crossClass(
      own,
      runs.slice(0, 3).map((x) => ({ ...x, canary: own.canary })),
    ),
    null,
    'runs of this class only, none of another, no same-key pair',
  );
});

test('a ratio beyond the band on another class does not hold there, even in the same direction', (t) => {
  const far: PublishedRun = { ...runs[2]!, id: '2026-12-07-a-far', p50: cells({ docker: 40 }), direction: directions(dirs) };
  const r = crossClass(own, [...runs, far])!;
  const d = r.differences.find((x) => x.a === 'docker' && x.b === 'lazy')!;
  const other = d.others.find((o) => o.run === '2026-12-07-a-far')!;
  t.true(other.ratio > d.high!, `${other.ratio} beyond ${d.high}`);
  t.false(other.holds);
});

test('the scope line counts differences two classes share apart from those three share: none is said to hold "on all 3" that only two measured (made-up counts)', (t) => {
  const d = (classes: number, holds: number, n: number) => Array.from({ length: n }, () => ({ classes, holds }));
  const differences = [...d(3, 3, 18), ...d(3, 2, 10), ...d(2, 2, 14), ...d(2, 1, 2), ...d(1, 1, 5)];
  t.is(
    heldAcrossClasses(differences, ' and ratio'),
    '18 of the 28 Ready differences shared by 3 classes held on all 3 in direction and ratio, 14 of the 16 shared by 2 on both',
  );
  t.is(heldAcrossClasses(d(2, 2, 4), ''), '4 of the 4 Ready differences shared by 2 classes held on both in direction');
  t.is(heldAcrossClasses(d(1, 1, 3), ''), 'no Ready difference was measured on two classes');
});
