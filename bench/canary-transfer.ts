// Benchmark (not a test): how well one host class's run predicts another
// class's cells, without and with the other host's canary, leave one class
// out (harness/stats/canary-transfer.ts; issue 43 item 4). One run per class:
// the newest archived run of each class of the default experiment's archive
// (by default the three classes met so far). Prints, per held-out class and
// reference, the median |log error| over the shared Ready cells as a factor.
// Run: npx tsc -p . && node dist/bench/canary-transfer.js [RUN_FOLDER ...]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { projectRoot } from '../harness/process/project-root.js';
import { classRunOf, leaveOneClassOut } from '../harness/stats/canary-transfer.js';

const archive = join(projectRoot(), 'reports', 'lazy-startup', 'runs');
const folders =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['2026-12-05-f6b8e493f9fe', '2026-12-06-1b539537c7f0', '2026-12-07-5f8e0c3d58e6'].map((id) => join(archive, id));
const runs = folders.map((f) =>
  classRunOf(
    f.split('/').pop()!,
    parseCsvTable(readFileSync(join(f, 'statistics.csv'), 'utf8')).rows,
    (JSON.parse(readFileSync(join(f, 'run.json'), 'utf8')) as { canary?: { pieces: { piece: string; medianMs: number | null }[] } }).canary ?? null,
  ),
);
const x = (v: number | null): string => (v === null ? '–' : `×${v.toFixed(2)}`);
console.log('held out | from | cells | canary | unadjusted | canary-scaled | fitted β | fitted');
for (const e of leaveOneClassOut(runs))
  console.log(
    `${e.test} | ${e.reference} | ${e.cells} | ${x(e.canaryRatio)} | ${x(e.unadjusted)} | ${x(e.canaryScaled)} | ${e.elasticity === null ? '–' : e.elasticity.toFixed(2)} | ${x(e.fitted)}`,
  );
