import test from 'ava';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import type { ReplicateRun } from '../harness/analysis/replicate-runs.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

/** A run of two paths (x slower than y by `gapMs`), 3 sessions × 12 rounds, every value × the run's factor (made-up data). */
function run(id: string, host: string, factor: number, gapMs: number, seed: string): ReplicateRun {
  const random = seededRandom(seed);
  const rows: ReplicateRun['rows'] = [];
  for (let session = 1; session <= 3; session++) {
    for (let round = 1; round <= 12; round++) {
      for (const [path, base] of [
        ['x', 100 + gapMs],
        ['y', 100],
      ] as const) {
        const v = base * factor * (1 + 0.02 * (random() - 0.5));
        rows.push({ cohort: 'c', path, state: 'cold', session, round, readyMs: v, completionMs: v + 1 });
      }
    }
  }
  return { id, host, rows };
}

const cmp = [{ a: 'x', b: 'y' }];

test('runs on two hosts give each difference its host estimates and the cross-host range (made-up data)', (t) => {
  const runs = [run('r1', 'h1', 1, 50, '1'), run('r2', 'h1', 1.02, 50, '2'), run('r3', 'h2', 1.3, 50, '3'), run('r4', 'h2', 1.32, 50, '4')];
  const r = analyzeReplicates(runs, cmp, ['ready'], 0.95);
  t.is(r.hosts, 2);
  const d = r.differences[0]!;
  t.deepEqual(
    d.hostEstimates.map((h) => h.host),
    ['h1', 'h2'],
  );
  // the gap scales with the host's factor: about 50 ms on h1, 65 on h2
  t.true(d.crossHost!.lowMs > 45 && d.crossHost!.lowMs < 56, `${d.crossHost!.lowMs}`);
  t.true(d.crossHost!.highMs > 60 && d.crossHost!.highMs < 72, `${d.crossHost!.highMs}`);
  t.deepEqual(
    d.components.map((c) => c.level),
    ['hosts', 'runs', 'sessions', 'rounds'],
  );
});

test('a run-wide factor shows as a between-run component of the cells and none between sessions (made-up data)', (t) => {
  const runs = [run('r1', 'h1', 1, 50, 'a'), run('r2', 'h1', 1.15, 50, 'b'), run('r3', 'h1', 0.9, 50, 'c')];
  const r = analyzeReplicates(runs, cmp, ['ready'], 0.95);
  t.is(r.hostLogVariance, null, 'one host: no host component');
  // log factors 0, 0.140, -0.105: sample variance about 0.015
  t.true(r.runLogVariance! > 0.008 && r.runLogVariance! < 0.03, `${r.runLogVariance}`);
  for (const c of r.cells) t.true(c.components[2]!.variance! < 0.1 * c.components[1]!.variance!, `${c.path}: sessions ${c.components[2]!.variance}`);
});

test('one run per host leaves the run level to the host level (made-up data)', (t) => {
  const r = analyzeReplicates([run('r1', 'h1', 1, 50, 'p'), run('r2', 'h2', 1.2, 50, 'q')], cmp, ['ready'], 0.95);
  t.is(r.runLogVariance, null);
  t.true(r.hostLogVariance! > 0);
});
