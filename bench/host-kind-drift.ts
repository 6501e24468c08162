// Benchmark (not a test): the between-run figure of the default
// experiment's host kind, from the archived runs that are replicates (same
// sample-stage key) in reports/lazy-startup/runs/: the REML between-run
// variance of each cell's log launch time (hosts → runs → sessions → rounds,
// harness/analysis/replicate-analysis.ts), averaged over cells and metrics.
// harness/stats/host-kind-drift.ts holds the figure it printed. Then, per
// pair of runs in a group, how many of the second run's published median
// differences fall inside the first run's rerun interval (from its archived
// differences.csv and statistics.csv) and inside its 95% interval — in-sample,
// as the figure comes from the same runs.
// Run: npx tsc -p . && node dist/bench/host-kind-drift.js [RUNS_FOLDER]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { hostKindDrift } from '../harness/stats/host-kind-drift.js';
import { rerunInterval } from '../harness/stats/rerun-interval.js';
import { projectRoot } from '../harness/process/project-root.js';
import { analyzeReplicates } from '../harness/analysis/replicate-analysis.js';
import { replicateGroups } from '../harness/analysis/read-replicates.js';

const dir = process.argv[2] ?? join(projectRoot(), 'reports', 'lazy-startup', 'runs');
for (const g of replicateGroups(dir)) {
  const cohorts = new Set(g.runs.flatMap((x) => x.rows.map((row) => row.cohort)));
  const paths = [...new Set(g.runs.flatMap((x) => x.rows.map((row) => row.path)))].sort();
  const pairs = paths.flatMap((a, i) => paths.slice(i + 1).map((b) => ({ a, b })));
  const r = analyzeReplicates(g.runs, pairs, ['ready', 'completion'], 0.95);
  const runs = r.cells.map((c) => c.components.find((x) => x.level === 'runs')!.variance).filter((v): v is number => v !== null);
  const sorted = [...runs].sort((a, b) => a - b);
  console.log(`sample key ${g.key.slice(0, 12)}: runs ${g.runs.map((x) => `${x.id} (host ${x.host})`).join(', ')}`);
  console.log(
    `  cells with a run component: ${runs.length}; between-run variance of log time: mean ${r.runLogVariance?.toPrecision(4)}, median ${sorted[Math.floor(sorted.length / 2)]?.toPrecision(4)}`,
  );
  console.log(
    `  sd ${Math.sqrt(r.runLogVariance ?? NaN).toPrecision(4)} (a run's factor ×${Math.exp(Math.sqrt(r.runLogVariance ?? NaN)).toFixed(3)} at one sd)`,
  );
  console.log(
    `  between-run variance of the per-round log ratio, mean over ${r.differences.length} path pairs × states × metrics in ${cohorts.size} cohorts: ${r.ratioRunLogVariance?.toPrecision(4)} ` +
      `(correlation of two cells' run offsets ${(1 - (r.ratioRunLogVariance ?? NaN) / (2 * (r.runLogVariance ?? NaN))).toFixed(3)})`,
  );
}

const rowsOf = (run: string, file: string): Record<string, string>[] => parseCsvTable(readFileSync(join(dir, run, file), 'utf8')).rows;
for (const g of replicateGroups(dir)) {
  for (const x of g.runs) {
    for (const y of g.runs) {
      if (x === y) continue;
      const stats = rowsOf(x.id, 'statistics.csv');
      const p50 = (d: Record<string, string>, path: string): number =>
        Number(stats.find((s) => s['cohort'] === d['cohort'] && s['path'] === path && s['state'] === d['state'] && s['metric'] === d['metric'])?.['p50']);
      const other = rowsOf(y.id, 'differences.csv');
      let n = 0;
      let inRerun = 0;
      let in95 = 0;
      for (const d of rowsOf(x.id, 'differences.csv').filter((r) => r['kind'] === 'median_difference')) {
        const o = other.find((r) => ['kind', 'cohort', 'state', 'metric', 'a', 'b'].every((k) => r[k] === d[k]));
        if (!o) continue;
        const r = rerunInterval({
          observedMs: Number(d['value']),
          lowMs: Number(d['low']),
          highMs: Number(d['high']),
          confidence: Number(d['confidence']),
          aMs: p50(d, d['a']!),
          bMs: p50(d, d['b']!),
          runLogVariance: hostKindDrift.runLogVariance,
          ratioRunLogVariance: hostKindDrift.ratioRunLogVariance,
        });
        if (!r) continue;
        const v = Number(o['value']);
        n++;
        if (v >= r.lowMs && v <= r.highMs) inRerun++;
        if (v >= Number(d['low']) && v <= Number(d['high'])) in95++;
      }
      console.log(`${y.id}'s estimate inside ${x.id}'s rerun interval: ${inRerun} of ${n}; inside its 95% interval: ${in95} of ${n}`);
    }
  }
}
