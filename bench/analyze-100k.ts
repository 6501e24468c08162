// Benchmark (not a test): analysis of 100,000 synthetic formal samples
// (2 cohorts x 3 paths x 2 states x 8,333 rounds) with 5000 resamples per
// difference. Prints the wall time of reading from DuckDB plus analysis (in
// worker threads, one per CPU, as the analyze stage runs it).
// Run: npx tsc -p . && node dist/bench/analyze-100k.js
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { availableParallelism } from 'node:os';
import { analyzeSamplesInWorkers } from '../harness/analysis/analyze-in-workers.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { analyze100kRows, analyze100kRules } from './analyze-100k-data.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';

const dir = await mkdtemp(join(tmpdir(), 'benchgraph-analyze-'));
try {
  const rows = analyze100kRows();
  const file = join(dir, 'samples.duckdb');
  const t0 = performance.now();
  await writeSamplesTable(file, rows);
  const t1 = performance.now();
  const rules = analysisRules(analyze100kRules);
  const data = await readSamples(file);
  const t2 = performance.now();
  const cpu = process.cpuUsage();
  const result = await analyzeSamplesInWorkers(data, rules, null);
  const t3 = performance.now();
  const used = process.cpuUsage(cpu);
  console.log(
    `samples: ${rows.length} (${data.values.length} valid formal), cells: ${result.cells.length}, differences: ${result.differences.length} x ${rules.bootstrap.resamples} resamples`,
  );
  console.log(`setup (write DuckDB, not timed): ${((t1 - t0) / 1000).toFixed(2)} s`);
  console.log(
    `read from DuckDB: ${((t2 - t1) / 1000).toFixed(2)} s; statistics: ${((t3 - t2) / 1000).toFixed(2)} s on ${availableParallelism()} threads (CPU time of all threads: ${((used.user + used.system) / 1e6).toFixed(2)} s)`,
  );
  console.log(`analysis wall time: ${((t3 - t1) / 1000).toFixed(2)} s (target < 3 s)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
