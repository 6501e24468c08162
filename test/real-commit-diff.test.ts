// Real engines test (root only; CI runs it as root): `pipeline run` of the
// commit-diff-mini experiment (busybox-static image, two base sizes, two
// rounds) against a naive-diff and a native-diff private dockerd.
import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot, runCli, type CliResult, tempDir } from './helpers/cli.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { readRedirectDir, redirectDirRecordFile } from '../harness/process/overlay-redirect-dir.js';
import type { CommitAnalysis } from '../harness/commit/commit-analysis.js';
import { takeTurnsWithOverlayUsers } from './helpers/overlay-users.js';

takeTurnsWithOverlayUsers();

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.skip;
if (!isRoot) console.warn('real-commit-diff: skipped, needs root; CI runs it as root');

function dockerdPids(): Set<string> {
  const out = new Set<string>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!.endsWith('dockerd')) out.add(pid);
    } catch {
      /* gone */
    }
  }
  return out;
}

let dir = '';
let run: CliResult;
let redirectBefore = '';

function stageOutput(kind: string, file: string): string {
  const base = join(dir, '.data', 'stages', kind);
  return join(base, readdirSync(base)[0]!, 'outputs', file);
}

test.before(async () => {
  if (!isRoot) return;
  redirectBefore = readRedirectDir();
  dir = tempDir('bg-commit-diff-');
  cpSync(join(projectRoot, 'pipelines', 'commit-diff-mini.fragment.yaml'), join(dir, 'pipeline.yaml'));
  cpSync(join(projectRoot, 'pipelines', 'commit-diff.yaml'), join(dir, 'commit-diff.yaml')); // the file it extends
  run = await runCli(['run'], dir);
});

test.after.always(() => {
  if (dir && mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
});

rootTest('a tiny commit-diff sweep runs to its report on both real engines', (t) => {
  t.is(run.code, 0, run.stderr);
  t.true(existsSync(join(dir, 'reports', 'commit-diff-mini', 'report.md')));
});

rootTest('the naive and the native engine commit equal change sets in every cell and state', (t) => {
  const checks = JSON.parse(readFileSync(stageOutput('commit-sample', 'change-set-checks.json'), 'utf8')) as {
    cell: string;
    state: string;
    equal: boolean;
    entries: number;
  }[];
  t.is(checks.length, 4, 'two cells, two states');
  for (const c of checks) {
    t.true(c.equal, `${c.cell} ${c.state}`);
    t.true(c.entries > 0, `${c.cell} ${c.state} lists the changed files`);
  }
});

rootTest('the naive incremental commit is slower than the native one at the larger base', (t) => {
  const a = JSON.parse(readFileSync(stageOutput('commit-analyze', 'commit-analysis.json'), 'utf8')) as CommitAnalysis;
  const largest = Math.max(...a.ratios.map((r) => r.dims['total_mb']!));
  const r = a.ratios.find((x) => x.state === 'incremental' && x.dims['total_mb'] === largest)!;
  t.is(r.comparison.rounds, 2);
  t.true(r.medianA! > r.medianB!, `naive P50 ${r.medianA} ms, native P50 ${r.medianB} ms`);
});

rootTest("every commit records the engine's user and system CPU and its system calls, and the report says what the naive floor is", (t) => {
  const a = JSON.parse(readFileSync(stageOutput('commit-analyze', 'commit-analysis.json'), 'utf8')) as CommitAnalysis;
  for (const c of a.cells) {
    t.true(c.p50EngineUserCpuMs !== null && c.p50EngineSysCpuMs !== null, `${c.cell} ${c.method} ${c.state}`);
    t.true(c.p50EngineSyscalls! > 0, `${c.cell} ${c.method} ${c.state}: ${c.p50EngineSyscalls} system calls`);
  }
  t.regex(
    readFileSync(join(dir, 'reports', 'commit-diff-mini', 'report.md'), 'utf8'),
    /What the naive floor is: .* ms user, .* ms system; \d+ read\/write system calls/,
  );
});

rootTest('the overlay redirect_dir setting is back to its value before the run and its record is gone', (t) => {
  t.is(readRedirectDir(), redirectBefore);
  t.false(existsSync(redirectDirRecordFile(join(dir, '.data'))));
});

rootTest('the run leaves no engine, mount or engine folder behind', (t) => {
  // Other engineers start engines at the same time: check the pids our run logged.
  const ourPids = [...run.stderr.matchAll(/private dockerd \(pid (\d+)\)/g)].map((m) => m[1]!);
  t.is(ourPids.length, 2, 'the log names both dockerd pids');
  t.deepEqual(
    ourPids.filter((p) => dockerdPids().has(p)),
    [],
    'no dockerd started by the run is still alive',
  );
  t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
  t.deepEqual(existsSync(join(dir, '.data', 'tmp')) ? readdirSync(join(dir, '.data', 'tmp')).filter((n) => n.startsWith('commit-engines-')) : [], []);
  const ours = [...run.stderr.matchAll(/unix:\/\/\S*\/(bg-engine-[A-Za-z0-9]+)\//g)].map((m) => m[1]!);
  t.true(ours.length >= 2, 'the log names both engines');
  for (const d of ours) t.false(existsSync(join(tmpdir(), d)), `${d} removed`);
});
