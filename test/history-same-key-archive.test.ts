// `pipeline history` over the real archive of the default experiment
// (reports/lazy-startup/runs): two runs with the same sample-stage key on one
// host are replicates, so no cell change may be reported between them. The
// archive holds two such pairs (2026-12-01-7804b9079418 / -7b4874506693 on an
// Intel host, 2026-12-03-217768e3b495 / -8d2c88c27716 on an AMD one); a cell
// that moved over two host changes once showed as "+10% between run 2 and
// run 3" (issue 28).
import test from 'ava';
import { join } from 'node:path';
import { buildHistory } from '../harness/history/build-history.js';
import { sampleStageKey } from '../harness/history/attribution.js';
import { readRunsOf } from '../harness/history/read-runs.js';
import { projectRoot } from '../harness/process/project-root.js';

test('history over the archived lazy-startup runs reports no cell change between two runs with the same sample-stage key (each archived pair ran on one host)', (t) => {
  const runs = readRunsOf(join(projectRoot(), 'reports', 'lazy-startup'), projectRoot());
  const h = buildHistory(runs);
  const keys = runs.map((r) => sampleStageKey(r.record?.stages ?? null));
  const sameKey = keys.flatMap((k, i) => (i > 0 && k !== null && k === keys[i - 1] ? [i + 1] : []));
  // the two same-key pairs of the archive: without them this test could not fail
  t.true(sameKey.length >= 2, `same-key boundaries: ${sameKey.join(', ')}`);
  for (const run of sameKey) {
    t.deepEqual(
      h.changes.filter((c) => c.run === run).map((c) => `${c.cohort} ${c.path} ${c.state} ${c.metric} ×${c.ratio.toFixed(2)}`),
      [],
      `between run ${run - 1} (${runs[run - 2]!.id}) and run ${run} (${runs[run - 1]!.id})`,
    );
  }
  // the changes that remain are where the inputs or the host changed
  t.true(h.changes.length > 0);
  for (const c of h.changes) t.false(sameKey.includes(c.run));
});
