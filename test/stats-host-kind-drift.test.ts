import test from 'ava';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import { replicateGroups } from '../harness/analysis/read-replicates.js';
import { hostKindDrift, replicatePairs } from '../harness/stats/host-kind-drift.js';

test('the host-kind figures are the mean of the two pairs, one degree of freedom each', (t) => {
  t.is(hostKindDrift.degreesOfFreedom, 2);
  t.is(hostKindDrift.runLogVariance, (replicatePairs[0]!.runLogVariance + replicatePairs[1]!.runLogVariance) / 2);
  t.is(hostKindDrift.ratioRunLogVariance, (replicatePairs[0]!.ratioRunLogVariance + replicatePairs[1]!.ratioRunLogVariance) / 2);
});

for (const pair of replicatePairs)
  test(`the documented between-run variances of ${pair.machine} are those of cells and of path ratios its archived same-key runs give`, (t) => {
    const hostKindDrift = pair;
    const groups = replicateGroups(join(projectRoot(), 'reports', 'lazy-startup', 'runs'));
    const group = groups.find((g) => hostKindDrift.runs.every((id) => g.runs.some((r) => r.id === id)));
    t.truthy(group, `no sample-key group holds ${hostKindDrift.runs.join(', ')}`);
    const paths = [...new Set(group!.runs.flatMap((x) => x.rows.map((row) => row.path)))].sort();
    const pairs = paths.flatMap((a, i) => paths.slice(i + 1).map((b) => ({ a, b })));
    const r = analyzeReplicates(group!.runs, pairs, ['ready', 'completion'], 0.95);
    t.true(
      Math.abs(r.runLogVariance! - hostKindDrift.runLogVariance) < 5e-4 * hostKindDrift.runLogVariance,
      `${r.runLogVariance} vs ${hostKindDrift.runLogVariance}`,
    );
    t.true(
      Math.abs(r.ratioRunLogVariance! - hostKindDrift.ratioRunLogVariance) < 5e-4 * hostKindDrift.ratioRunLogVariance,
      `${r.ratioRunLogVariance} vs ${hostKindDrift.ratioRunLogVariance}`,
    );
  });
