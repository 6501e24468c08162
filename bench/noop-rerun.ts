// Benchmark (run by hand, prints its figure): wall time of a no-op rerun of
// the smoke pipeline, i.e. every stage reused. Target: median under 1 s on
// the 2-core machine. Usage: node dist/bench/noop-rerun.js [runs]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from '../harness/stats/quantile.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'bin', 'pipeline.js');
const runs = Number(process.argv[2] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'benchgraph-noop-'));
cpSync(join(root, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));

const run = (): number => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'run', '--json'], { cwd: dir, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`pipeline run failed: ${r.stderr}`);
  const ran = (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { stages: { action: string }[] }).stages.filter((s) => s.action === 'ran');
  return ran.length ? Number.NaN : ms;
};

run(); // the real run that freezes everything
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const ms = run();
  if (Number.isNaN(ms)) throw new Error('a rerun ran a stage: it was not a no-op');
  times.push(ms);
}
rmSync(dir, { recursive: true, force: true });
const median = quantile(times, 0.5);
console.log(`no-op rerun of pipelines/smoke.yaml, ${runs} runs: median ${median.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (target < 1000 ms)`);
