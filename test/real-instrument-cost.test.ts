// Real engine test (root only; CI runs it as root): the instrument-cost
// experiment (pipelines/instrument-cost.yaml) on the busybox-static image, one
// session of two rounds, through the real registry, nginx, private dockerd,
// rclone, erofs and crun. Every launch passes; the counted paths count their
// image bytes through the proxy while their direct twins, reaching the same
// services at {services.ID.direct_url}/direct_address, count none; the
// analysis gives an interval for every counted - direct difference.
import test from 'ava';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';
import { mountsUnder } from '../harness/process/mount-table.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('real-instrument-cost: skipped, needs root; CI runs it as root');

/** The published pipeline with the tiny busybox image in place of debian-minbase (pin in seconds). */
function busyboxVariant(text: string): string {
  const swaps: [RegExp, string][] = [
    [/    debian-minbase:\n(      .*\n)+/, '    busybox:\n      kind: busybox-static\n      repository: benchgraph/busybox\n'],
    [
      /    image: debian-minbase\n    command: .*\n/,
      "    image: busybox\n    command: [/bin/sh, -c, 'grep -qx ID=busybox /etc/os-release && echo {marker}']\n",
    ],
  ];
  for (const [from, to] of swaps) {
    if (!from.test(text)) throw new Error(`instrument-cost.yaml no longer matches ${String(from)}`);
    text = text.replace(from, to);
  }
  return text;
}

interface Analysis {
  differences: { state: string; metric: string; a: string; b: string; lowMs: number | null; highMs: number | null }[];
  bytes: { path: string; state: string; contentBytes: { min: number | null; max: number | null } }[];
  failures: unknown[];
}

rootTest(
  'the instrument-cost rows run on real parts: counted paths count bytes, their direct twins none, and each counted - direct difference has an interval',
  async (t) => {
    t.timeout(600_000);
    const dir = tempDir('bg-instrument-cost-');
    writeFileSync(join(dir, 'pipeline.yaml'), busyboxVariant(readFileSync(join(projectRoot, 'pipelines', 'instrument-cost.yaml'), 'utf8')));
    const r = await runCli(['run', '--set', 'design.sessions=1', '--set', 'design.rounds=2', '--set', 'design.warmup_rounds=1'], dir);
    t.is(r.code, 0, r.stderr);
    const analyzeDir = join(dir, '.data', 'stages', 'analyze');
    const analysis = JSON.parse(readFileSync(join(analyzeDir, readdirSync(analyzeDir)[0]!, 'outputs', 'analysis.json'), 'utf8')) as Analysis;
    t.deepEqual(analysis.failures, []);
    const cold = (path: string) => analysis.bytes.find((b) => b.path === path && b.state === 'cold')!.contentBytes;
    t.true(cold('lazy').min! > 0, 'cold lazy reads image bytes through the proxy');
    t.true(cold('docker').min! > 0, 'cold docker pulls its blobs through the proxy');
    t.is(cold('lazy-direct').max, 0, 'the direct lazy twin bypasses the proxy');
    t.is(cold('docker-direct').max, 0, 'the direct docker twin bypasses the proxy');
    const rows = analysis.differences.filter((d) => d.metric === 'ready').map((d) => `${d.state} ${d.a} - ${d.b}`);
    t.deepEqual(rows.sort(), ['cold docker - docker-direct', 'cold lazy - lazy-direct', 'warm docker - docker-direct', 'warm lazy - lazy-direct']);
    for (const d of analysis.differences) t.true(d.lowMs !== null && d.highMs !== null && d.lowMs <= d.highMs, `${d.state} ${d.metric} ${d.a} - ${d.b}`);
    t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  },
);
