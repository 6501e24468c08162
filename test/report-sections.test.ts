// What report.md says about provenance, bytes and the design, on synthetic launches.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { stackFindings } from '../harness/analysis/analysis-findings.js';
import { stackSentence } from '../harness/report/launch-phrases.js';
import { runReport } from './helpers/report-run.js';

let dir = '';
let md = '';
let reproduce = '';

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-sections-'));
  const out = await runReport(dir);
  md = await readFile(join(out.reportDir, 'report.md'), 'utf8');
  reproduce = await readFile(join(out.reportDir, 'REPRODUCE.md'), 'utf8');
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the design section names the host, the benchgraph commit with its dirty flag and the measurement date', (t) => {
  const section = md.split('## Provenance and downloads\n')[1]!.split('\n## ')[0]!;
  t.regex(section, /- Host: CPU .+, \d+ vCPUs, \d+\.\d GiB RAM, virtualization or container: .+, cgroup (v1|v2|hybrid)/);
  t.regex(section, /- benchgraph commit [0-9a-f]{40} (\(clean\)|with uncommitted changes \(dirty\))\./);
  t.regex(section, /- Measured on 2026-10-07, formal launches from 10:00 to \d\d:\d\d UTC\./);
});

test('a content count that varies within a cell is listed value by value with its number of launches', (t) => {
  t.regex(md, /numpy|Numpy/);
  t.regex(md, /lazy cold: 36,886,444 \(\d+ launches\), 36,951,980 \(\d+ launches\)/);
});

test('the report says request counts are not recorded rather than leaving them out silently', (t) => {
  t.true(md.includes('Request counts per launch are not recorded in the sample table'));
});

test('the cluster outcome is stated even when no cell splits', (t) => {
  t.regex(md, /The cluster rule split (none of the \d+ cells|\d+ of the \d+ cells)/);
});

test('dominance reads as "shorter than", never "precedes"', (t) => {
  t.regex(md, /is shorter than every/);
  t.notRegex(md, /precede/);
});

test('REPRODUCE.md of a pipeline with images and a lazy path gives the exact commands, root and the kernel needs its scripts use, and what counts as reproduced', async (t) => {
  const other = await mkdtemp(join(tmpdir(), 'benchgraph-reproduce-'));
  try {
    const out = await runReport(other, undefined, (cfg) => {
      cfg.artifacts = { images: { 'debian-minbase': { kind: 'mmdebstrap' } } };
      // The lazy path runs the harness's lazy launcher: erofs over rclone's FUSE mount, an overlay, crun.
      cfg.paths['lazy']!.launch = [
        '{harness}/paths/lazy-launch.sh',
        '{state}',
        '{pair_dir}',
        '{workspace}',
        'http://127.0.0.1:1',
        '{image.erofs_file}',
        '--',
        '{command}',
      ];
    });
    reproduce = await readFile(join(out.reportDir, 'REPRODUCE.md'), 'utf8');
  } finally {
    await rm(other, { recursive: true, force: true });
  }
  t.regex(reproduce, /Debian 12 \(bookworm\)/);
  t.regex(reproduce, /- root: /);
  // the pipeline file lies in a folder of its own (a temporary one), not in the checkout: the commands run the checkout's CLI there
  t.true(reproduce.includes('```\n(cd "$BENCHGRAPH" && ./setup.sh)\n"$BENCHGRAPH/bin/pipeline.js" run -f pipeline.yaml\n```'), reproduce);
  t.regex(reproduce, /erofs.*overlay.*FUSE.*loop/);
  t.regex(reproduce, /runs containers with crun/);
  t.notRegex(reproduce, /Docker engine/, 'no path starts one');
  t.regex(reproduce, /## What counts as reproduced\n\n.*pipeline\.js compare/);
  t.notRegex(reproduce, /^pipeline run/m);
});

function cell(path: string, state: string, p50Ms: number): CellStatistics {
  return {
    cohort: 'c',
    path,
    state,
    metric: 'ready',
    launches: 30,
    failures: 0,
    n: 30,
    p50Ms,
    p95Ms: null,
    p95ReferenceOnly: true,
    minMs: p50Ms - 1,
    maxMs: p50Ms + 1,
    split: false,
    groups: [],
    sessions: [{ session: 1, n: 30, p50Ms }],
    sessionSpread: null,
    variance: { betweenSessions: null, withinSessions: 1, dominant: null },
    position: null,
    predecessor: null,
    orderEffect: false,
    carryover: 'not-estimated',
  };
}
function diff(a: string, b: string, observedMs: number, lowMs: number, highMs: number): DifferenceResult {
  return {
    cohort: 'c',
    state: 'warm',
    metric: 'ready',
    a,
    b,
    rounds: 30,
    sessions: 1,
    perSession: [],
    sameDirection: 1,
    betweenSessionEstimated: false,
    sessionLowMs: null,
    sessionHighMs: null,
    observedMs,
    lowMs,
    highMs,
    resamples: 1000,
    confidence: 0.95,
    detected: lowMs > 0 || highMs < 0,
    findings: { sessionsDisagreeInSize: false, direction: null, sizeUncertain: false, sessionsAloneExcluding: 0 },
  };
}

test('the warm gap is put down to the runtime stack only when two paths on one stack are close and a path on another stack is far', (t) => {
  const a = {
    cells: [cell('docker', 'warm', 158), cell('lazy', 'warm', 32), cell('oci-full', 'warm', 30.5)],
    dominance: [],
    bytes: [],
    failures: [],
    differences: [diff('docker', 'lazy', 126, 120, 131), diff('oci-full', 'lazy', -1.5, -3, 0.5)],
  } as unknown as AnalysisResult;
  const stacks: Record<string, string> = { docker: 'Docker engine', lazy: 'crun', 'oci-full': 'crun' };
  const judged = (s: Record<string, string>): AnalysisResult => ({ ...a, findings: { stack: stackFindings(a, s, 0.25), sessionsDisagree: [], sources: [] } });
  t.is(
    stackSentence(judged(stacks), ['c'], ['warm']),
    'Warm, the gap is associated with the runtime stack, not with how the image is read (c): oci-full and lazy, both on crun, differ by less than a quarter of it, while docker, on Docker engine, is slower.',
  );
  t.is(stackSentence(judged({ docker: 'crun', lazy: 'crun', 'oci-full': 'crun' }), ['c'], ['warm']), null);
});

test('two paths on one stack that both read on demand never put a gap down to the stack: "not how the image is read" needs two ways of reading it', (t) => {
  const a = {
    cells: [cell('docker', 'cold', 2800), cell('lazy', 'cold', 290), cell('estargz', 'cold', 360)],
    dominance: [],
    bytes: [],
    failures: [],
    differences: [diff('docker', 'lazy', 2500, 2200, 3200), diff('estargz', 'lazy', 74, 52, 111)],
  } as unknown as AnalysisResult;
  const stacks: Record<string, string> = { docker: 'Docker engine', lazy: 'crun', estargz: 'crun' };
  t.is(stackFindings(a, stacks, 0.25, { docker: 'full', lazy: 'on-demand', estargz: 'on-demand' }).length, 0);
  t.is(stackFindings(a, stacks, 0.25).length, 1, 'where the paths do not say how they pull, the rule is as before');
});
