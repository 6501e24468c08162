// Benchmark (not a test): the between-run figure of the default
// experiment's host kind, from the archived runs that are replicates (same
// sample-stage key) in reports/lazy-startup/runs/: the REML between-run
// variance of each cell's log launch time (hosts → runs → sessions → rounds,
// harness/analysis/replicate-analysis.ts), averaged over cells and metrics.
// harness/stats/host-kind-drift.ts holds the figure it printed.
// Run: npx tsc -p . && node dist/bench/host-kind-drift.js [RUNS_FOLDER]
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import { replicateGroups } from '../harness/analysis/read-replicates.js';

const dir = process.argv[2] ?? join(projectRoot(), 'reports', 'lazy-startup', 'runs');
for (const g of replicateGroups(dir)) {
  const r = analyzeReplicates(g.runs, [], ['ready', 'completion'], 0.95);
  const runs = r.cells.map((c) => c.components.find((x) => x.level === 'runs')!.variance).filter((v): v is number => v !== null);
  const sorted = [...runs].sort((a, b) => a - b);
  console.log(`sample key ${g.key.slice(0, 12)}: runs ${g.runs.map((x) => `${x.id} (host ${x.host})`).join(', ')}`);
  console.log(
    `  cells with a run component: ${runs.length}; between-run variance of log time: mean ${r.runLogVariance?.toPrecision(4)}, median ${sorted[Math.floor(sorted.length / 2)]?.toPrecision(4)}`,
  );
  console.log(
    `  sd ${Math.sqrt(r.runLogVariance ?? NaN).toPrecision(4)} (a run's factor ×${Math.exp(Math.sqrt(r.runLogVariance ?? NaN)).toFixed(3)} at one sd)`,
  );
}
