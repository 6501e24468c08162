// Benchmark (run by hand, prints its figures): wall time of a no-op rerun of
// the smoke pipeline (every stage reused) and of `pipeline status` on it,
// against bare `node -e 0` measured in the same run, interleaved (the order
// rotates each round), so a busy or slow machine moves all three alike.
// Target (issue 31): each median at most 1.5x bare Node's median.
// A fourth row, for information, reruns the same pipeline inside a git work
// tree, as a user's checkout is: there the run also asks git whether the
// checkout is clean before it republishes (run-pipeline.ts), in children that
// run beside the plan.
// Usage: node dist/bench/noop-rerun.js [runs]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from '../harness/stats/quantile.js';
import { CliBundle } from '../harness/cli/cli-bundle.cjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'bin', 'pipeline.js');
const runs = Number(process.argv[2] ?? 10);
// A bundle older than dist/ (after `tsc` alone) makes the CLI run its ES modules instead, some 30 ms slower: not the CLI as built.
const bundle = CliBundle.open(join(root, 'dist', 'cli-bundle.js'), null, 'bench');
if (!bundle || !(await bundle.import('harness/cli/main'))) {
  console.error("dist/cli-bundle.js is missing or older than dist/: run 'npm run build' first (the CLI would start from its ES modules)");
  process.exit(2);
}
const TARGET_RATIO = 1.5;
const dir = mkdtempSync(join(tmpdir(), 'benchgraph-noop-'));
cpSync(join(root, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
// the same pipeline in a committed git work tree of its own
const repo = mkdtempSync(join(tmpdir(), 'benchgraph-noop-git-'));
cpSync(join(root, 'pipelines', 'smoke.yaml'), join(repo, 'pipeline.yaml'));
const git = (...args: string[]): void => {
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
};
git('init', '-q');
git('add', 'pipeline.yaml');
git('commit', '-qm', 'smoke');

function timed(args: string[], what: string, cwd = dir): { ms: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${what} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const rerunIn = (cwd: string): number => {
  const { ms, stdout } = timed([cli, 'run', '--json'], 'pipeline run', cwd);
  const ran = (JSON.parse(stdout.trim().split('\n').at(-1)!) as { stages: { action: string }[] }).stages.filter((s) => s.action === 'ran');
  if (ran.length) throw new Error('a rerun ran a stage: it was not a no-op');
  return ms;
};
const rerun = (): number => rerunIn(dir);
const rerunInGit = (): number => rerunIn(repo);
const status = (): number => timed([cli, 'status', '--json'], 'pipeline status').ms;
const bareNode = (): number => timed(['-e', '0'], 'node -e 0').ms;

timed([cli, 'run'], 'the first run'); // the real run that freezes everything
timed([cli, 'run'], 'the first run in the git work tree', repo);
const kinds = [
  { name: 'no-op rerun of pipelines/smoke.yaml', measure: rerun, times: [] as number[] },
  { name: 'pipeline status of pipelines/smoke.yaml', measure: status, times: [] as number[] },
  { name: 'bare node -e 0', measure: bareNode, times: [] as number[] },
  { name: 'no-op rerun in a git work tree (information)', measure: rerunInGit, times: [] as number[] },
];
for (let i = 0; i < runs; i++) {
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[(i + k) % kinds.length]!;
    kind.times.push(kind.measure());
  }
}
rmSync(dir, { recursive: true, force: true });
rmSync(repo, { recursive: true, force: true });

const median = (xs: number[]): number => quantile(xs, 0.5);
const nodeMs = median(kinds[2]!.times);
for (const k of kinds) {
  const m = median(k.times);
  const ratio = k.measure === bareNode ? '' : `, x${(m / nodeMs).toFixed(2)} bare node${k.measure === rerunInGit ? '' : ` (target <= x${TARGET_RATIO})`}`;
  console.log(
    `${k.name}, ${runs} runs interleaved: median ${m.toFixed(0)} ms, min ${Math.min(...k.times).toFixed(0)} ms, max ${Math.max(...k.times).toFixed(0)} ms${ratio}`,
  );
}
