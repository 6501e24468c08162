// stats/canary-transfer.ts: a host class's cells predicted from another's,
// without and with the canary, leave one class out (issue 43 item 4).
// Made-up classes with a known factor recover it; on the three archived
// classes of the default experiment, an independent NumPy computation gives
// the same errors and elasticities.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { projectRoot } from '../harness/process/project-root.js';
import { canaryFactor, classRunOf, fitElasticity, leaveOneClassOut, type ClassRun } from '../harness/stats/canary-transfer.js';

const base = { cpu: 30, mem: 35, fs: 4, wake: 63, exec: 0.65 };
const paths = { docker: 2000, lazy: 200, gvisor: 900, crun: 40 };
/** A made-up class: the canary's pieces scaled by `by`, every cell by g^β (g the canary's geometric factor) times a per-path wobble. */
function madeUp(id: string, by: Record<string, number>, beta: number, wobble: Record<string, number> = {}): ClassRun {
  const canary = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, v * (by[k] ?? 1)]));
  const g = canaryFactor(base, canary)!;
  return { id, canary, cells: new Map(Object.entries(paths).map(([p, v]) => [`shell|${p}|cold`, v * g ** beta * (wobble[p] ?? 1)])) };
}

test('the canary factor is the geometric mean of the pieces both canaries timed', (t) => {
  t.is(canaryFactor({ cpu: 1, mem: 1 }, { cpu: 4, mem: 1 })!.toFixed(6), (2).toFixed(6));
  t.is(canaryFactor({ cpu: 1, mem: 1 }, { cpu: 4, fs: 9 })!.toFixed(6), (4).toFixed(6));
  t.is(canaryFactor({ cpu: 1 }, { mem: 2 }), null);
});

test('cells that move with the canary are predicted exactly by scaling, and the fitted elasticity is 1', (t) => {
  const runs = [madeUp('a', {}, 1), madeUp('b', { mem: 5.5, exec: 5.3 }, 1), madeUp('c', { cpu: 1.35, mem: 1.5 }, 1)];
  const errors = leaveOneClassOut(runs);
  t.is(errors.length, 6);
  for (const e of errors) {
    t.true(Math.abs(e.canaryScaled - 1) < 1e-9, `${e.test} from ${e.reference}`);
    t.true(Math.abs(e.unadjusted - e.canaryRatio ** Math.sign(Math.log(e.canaryRatio))) < 1e-9);
    t.true(Math.abs(e.elasticity! - 1) < 1e-9);
  }
});

test('cells that move with half the canary: scaling overshoots by as much as not scaling misses, the fit recovers β = 0.5 and predicts exactly', (t) => {
  const runs = [madeUp('a', {}, 0.5), madeUp('b', { mem: 5.5, exec: 5.3 }, 0.5), madeUp('c', { cpu: 1.35, mem: 1.5 }, 0.5)];
  t.true(Math.abs(fitElasticity(runs)! - 0.5) < 1e-9);
  for (const e of leaveOneClassOut(runs)) {
    t.true(Math.abs(e.fitted! - 1) < 1e-9);
    // the cells moved by g^0.5: unadjusted misses by g^0.5, scaled by g overshoots by g^0.5
    t.true(Math.abs(e.canaryScaled - e.unadjusted) < 1e-9, `${e.test} from ${e.reference}`);
    t.true(e.canaryScaled > 1.01, `${e.test} from ${e.reference}: ×${e.canaryScaled}`);
  }
});

test('with two classes nothing is fitted: both errors on the pair only', (t) => {
  const errors = leaveOneClassOut([madeUp('a', {}, 1, { docker: 1.2 }), madeUp('b', { mem: 2 }, 1)]);
  t.is(errors.length, 2);
  for (const e of errors) {
    t.is(e.fitted, null);
    t.is(e.elasticity, null);
  }
});

const archive = join(projectRoot(), 'reports', 'lazy-startup', 'runs');
const classRuns = ['2026-12-05-f6b8e493f9fe', '2026-12-06-1b539537c7f0', '2026-12-07-5f8e0c3d58e6'];

test('on the three archived classes, NumPy computes the same leave-one-class-out errors and elasticities', (t) => {
  const runs = classRuns.map((id) =>
    classRunOf(
      id,
      parseCsvTable(readFileSync(join(archive, id, 'statistics.csv'), 'utf8')).rows,
      (JSON.parse(readFileSync(join(archive, id, 'run.json'), 'utf8')) as { canary: { pieces: { piece: string; medianMs: number | null }[] } }).canary,
    ),
  );
  const ours = leaveOneClassOut(runs);
  const script = `
import json, sys, csv, itertools
import numpy as np
archive, ids = sys.argv[1], sys.argv[2:]
cells, canary = {}, {}
for i in ids:
    rows = csv.DictReader(open(f'{archive}/{i}/statistics.csv'))
    cells[i] = {(r['cohort'], r['path'], r['state']): float(r['p50']) for r in rows if r['metric'] == 'ready' and r['p50']}
    canary[i] = {p['piece']: p['medianMs'] for p in json.load(open(f'{archive}/{i}/run.json'))['canary']['pieces']}
def g(a, b):
    ks = [k for k in canary[a] if canary[a][k] and canary[b].get(k)]
    return float(np.exp(np.mean([np.log(canary[b][k] / canary[a][k]) for k in ks])))
def shared(a, b):
    return sorted(set(cells[a]) & set(cells[b]))
out = []
for test in ids:
    others = [i for i in ids if i != test]
    x, y = [], []
    for a, b in itertools.combinations(others, 2):
        for k in shared(a, b):
            x.append(np.log(g(a, b))); y.append(np.log(cells[b][k] / cells[a][k]))
    beta = float(np.linalg.lstsq(np.array(x)[:, None], np.array(y), rcond=None)[0][0])
    for ref in others:
        ks = shared(ref, test)
        d = np.array([np.log(cells[test][k] / cells[ref][k]) for k in ks])
        s = np.log(g(ref, test))
        f = lambda shift: float(np.exp(np.median(np.abs(d - shift))))
        out.append({'test': test, 'reference': ref, 'cells': len(ks), 'unadjusted': f(0), 'canaryScaled': f(s), 'fitted': f(beta * s), 'elasticity': beta})
print(json.dumps(out))
`;
  const reference = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, archive, ...classRuns]).toString()) as {
    test: string;
    reference: string;
    cells: number;
    unadjusted: number;
    canaryScaled: number;
    fitted: number;
    elasticity: number;
  }[];
  t.is(ours.length, reference.length);
  for (const [i, r] of reference.entries()) {
    const o = ours[i]!;
    t.is(o.test, r.test);
    t.is(o.reference, r.reference);
    t.is(o.cells, r.cells);
    for (const f of ['unadjusted', 'canaryScaled', 'fitted', 'elasticity'] as const)
      t.true(Math.abs(o[f]! - r[f]) < 1e-9, `${o.test} from ${o.reference} ${f}`);
  }
  // what the closing note quotes: the canary helps on every pair
  for (const o of ours) t.true(o.canaryScaled < o.unadjusted, `${o.test} from ${o.reference}`);
});
