// Benchmark (run by hand, prints its figures): wall time of a no-op rerun of
// the smoke pipeline (every stage reused) and of `pipeline status` on it.
// Targets: medians under 300 ms each on the 2-core machine.
// Usage: node dist/bench/noop-rerun.js [runs]
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

const status = (): number => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'status', '--json'], { cwd: dir, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`pipeline status failed: ${r.stderr}`);
  return ms;
};

run(); // the real run that freezes everything
const times: number[] = [];
const statusTimes: number[] = [];
for (let i = 0; i < runs; i++) {
  const ms = run();
  if (Number.isNaN(ms)) throw new Error('a rerun ran a stage: it was not a no-op');
  times.push(ms);
  statusTimes.push(status());
}
rmSync(dir, { recursive: true, force: true });
const line = (what: string, xs: number[]): string =>
  `${what}, ${runs} runs: median ${quantile(xs, 0.5).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (target < 300 ms)`;
console.log(line('no-op rerun of pipelines/smoke.yaml', times));
console.log(line('pipeline status of pipelines/smoke.yaml', statusTimes));
