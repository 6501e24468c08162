// Benchmark (not a test): how the analysis grows from 10^5 to 10^6 launches.
// Synthetic formal samples, 2 cohorts x 5 paths x 2 states x 10 sessions x R
// rounds per session (R = 500: 10^5 launches; R = 5,000: 10^6), 4 comparisons, 1000
// resamples per bootstrap. Each size is written to samples.duckdb by one child
// process (setup, not timed) and read and analysed by another (DuckDB read,
// then the statistics in threads, as the analyze stage runs them), which
// reports its wall time and its peak RSS (process.resourceUsage().maxRSS,
// worker threads included: they share the process). Prints both sizes and the
// 10^6 / 10^5 ratios; linear growth is x10.
// Run: npx tsc -p . && node dist/bench/analyze-scale.js
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamplesInWorkers } from '../harness/analysis/analyze-in-workers.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';

const sessions = 10;
const paths = { docker: 400, lazy: 180, 'oci-full': 600, 'gvisor-full': 700, 'gvisor-lazy': 260 };
const rules = analysisRules({
  bootstrap: { resamples: 1000, seed: 'scale' },
  comparisons: [
    { a: 'docker', b: 'lazy' },
    { a: 'oci-full', b: 'lazy' },
    { a: 'gvisor-full', b: 'gvisor-lazy' },
    { a: 'gvisor-lazy', b: 'lazy' },
  ],
});

interface Measured {
  launches: number;
  readS: number;
  statisticsS: number;
  maxRssBytes: number;
}

async function write(file: string, roundsPerSession: number): Promise<void> {
  const rows = syntheticSamples({
    experiment: 'scale',
    cohorts: ['numpy', 'shell'],
    paths,
    states: ['cold', 'warm'],
    rounds: sessions * roundsPerSession,
    seed: 'scale',
    failEvery: 997,
  });
  for (const r of rows) r['session'] = 1 + Math.floor(((r['round'] as number) - 1) / roundsPerSession);
  await writeSamplesTable(file, rows);
}

async function analyze(file: string): Promise<Measured> {
  const t0 = performance.now();
  const data = await readSamples(file);
  const t1 = performance.now();
  await analyzeSamplesInWorkers(data, rules, null);
  const t2 = performance.now();
  return {
    launches: data.cells.reduce((n, c) => n + c.launches, 0),
    readS: (t1 - t0) / 1000,
    statisticsS: (t2 - t1) / 1000,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

const self = fileURLToPath(import.meta.url);
function child(args: string[]): string {
  const r = spawnSync(process.execPath, [self, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${args[0]} child exited with ${r.status}`);
  return r.stdout;
}

const [mode, file, rounds] = process.argv.slice(2);
if (mode === '--write') await write(file!, Number(rounds));
else if (mode === '--analyze') console.log(JSON.stringify(await analyze(file!)));
else {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-scale-'));
  try {
    const measured: Measured[] = [];
    for (const roundsPerSession of [500, 5000]) {
      const db = join(dir, `samples-${roundsPerSession}.duckdb`);
      const w0 = performance.now();
      child(['--write', db, String(roundsPerSession)]);
      const setupS = (performance.now() - w0) / 1000;
      const m = JSON.parse(child(['--analyze', db])) as Measured;
      measured.push(m);
      console.log(
        `${m.launches} launches (setup ${setupS.toFixed(1)} s, not timed): ` +
          `read ${m.readS.toFixed(2)} s, statistics ${m.statisticsS.toFixed(2)} s, analysis ${(m.readS + m.statisticsS).toFixed(2)} s, peak RSS ${(m.maxRssBytes / 2 ** 20).toFixed(0)} MiB`,
      );
      await rm(db, { force: true });
    }
    const [small, large] = measured as [Measured, Measured];
    const ratio = (x: number, y: number): string => `x${(y / x).toFixed(2)}`;
    console.log(
      `10^6 / 10^5: launches ${ratio(small.launches, large.launches)}, analysis time ${ratio(small.readS + small.statisticsS, large.readS + large.statisticsS)} ` +
        `(read ${ratio(small.readS, large.readS)}, statistics ${ratio(small.statisticsS, large.statisticsS)}), peak RSS ${ratio(small.maxRssBytes, large.maxRssBytes)} ` +
        `(${(large.maxRssBytes / 2 ** 30).toFixed(2)} GiB at 10^6; target < 2 GB)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
