import test from 'ava';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import { replicateGroups } from '../harness/analysis/read-replicates.js';
import { hostKindDrift } from '../harness/stats/host-kind-drift.js';

test('the documented host-kind figures are the between-run variances of cells and of path ratios the archived same-key runs give', (t) => {
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
