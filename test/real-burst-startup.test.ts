// Real crun, gVisor, a private Docker engine and on-demand reads through
// rclone and erofs (root only; CI runs it as root): burst-startup, a YAML file plus one arm adapter, runs end to end:
// per path, bursts of 1 and 3 launches released together in two sessions,
// through the shared analyze stage and its own report, every launch a row of
// samples.csv from which the curve recomputes, and nothing left behind.
import test from 'ava';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { burstColumns } from '../harness/burst/burst-adapter.js';
import { burstLaunchesOf } from '../harness/burst/burst-launches.js';
import { concurrencyCurve } from '../harness/burst/concurrency-curve.js';
import { curveCsv, openLoopCsv } from '../harness/burst/curve-csv.js';
import { openLoopTable, type OpenLoopRow } from '../harness/burst/open-loop.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { runCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('real-burst-startup: skipped, needs root, crun, runsc and dockerd; CI runs it as root');

rootTest('burst-startup releases N launches together per path, journals each, and publishes a curve that recomputes from samples.csv', async (t) => {
  t.timeout(600_000);
  const dir = tempDir('bg-burst-');
  try {
    writePipelineVariant(dir, 'burst-startup-mini.fragment.yaml');
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr.slice(-2000));
    t.regex(r.stderr, /launches 56\/56/, 'the progress line counts every launch of a burst and of an open-loop train');
    const out = join(dir, 'reports', 'burst-startup-mini');
    const csvText = readFileSync(join(out, 'samples.csv'), 'utf8');
    const rows = parseSampleCsv(csvText, 'samples.csv', burstColumns).filter((s) => s['phase'] === 'formal');
    // 2 sessions x 4 paths x (1 + 3 launches, and a train of 3 at 50/s) x 1 round
    t.is(rows.length, 56);
    t.true(
      rows.every((s) => s['ok'] === true && typeof s['ready_ms'] === 'number'),
      'every launch printed its marker',
    );
    const slots = (arm: string) =>
      rows.filter((s) => s['path'] === arm && s['session'] === 1).map((s) => (s as unknown as Record<string, unknown>)['burst_slot']);
    t.deepEqual(slots('runsc-n3').sort(), [0, 1, 2]);
    t.deepEqual(slots('docker-n1'), [0]);
    t.is(new Set(rows.map((s) => s['launch_id'])).size, 56, 'each launch of a burst has its own id');
    // an open-loop train: launch k released k × 20 ms after the first, each timed from its own release
    const train = rows
      .filter((s) => s['path'] === 'crun-r50' && s['session'] === 1)
      .map((s) => s as unknown as Record<string, number>)
      .sort((a, b) => a['burst_slot']! - b['burst_slot']!);
    t.deepEqual(
      train.map((s) => [s['burst_slot'], s['arrival_rate_per_s'], Math.round(s['release_offset_ms']! * 1000) / 1000]),
      [
        [0, 50, 0],
        [1, 50, 20],
        [2, 50, 40],
      ],
    );
    t.true(
      rows.filter((s) => String(s['path']).endsWith('-n3')).every((s) => (s as unknown as Record<string, unknown>)['release_offset_ms'] === 0),
      'a closed loop releases every launch at once',
    );
    const open = openLoopTable(rows as unknown as OpenLoopRow[], burstLaunchesOf(rows as unknown as SampleRow<{ burst_level?: number }>[]));
    t.is(readFileSync(join(out, 'open-loop.csv'), 'utf8'), openLoopCsv(open));
    t.deepEqual(
      open.map((x) => `${x.path}/${x.ratePerS}/${x.launches}`),
      ['crun/50/6', 'docker/50/6', 'lazy/50/6', 'runsc/50/6'],
    );
    // the published curve is what samples.csv gives
    const curve = concurrencyCurve(burstLaunchesOf(rows as unknown as SampleRow<{ burst_level?: number }>[]));
    t.is(readFileSync(join(out, 'curve.csv'), 'utf8'), curveCsv(curve));
    t.deepEqual(
      parseCsvTable(readFileSync(join(out, 'curve.csv'), 'utf8')).rows.map((c) => `${c['path']}/${c['level']}/${c['launches']}`),
      ['crun/1/2', 'crun/3/6', 'docker/1/2', 'docker/3/6', 'lazy/1/2', 'lazy/3/6', 'runsc/1/2', 'runsc/3/6'],
    );
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    t.regex(report, /\*\*runsc\*\*: each launch ×[\d.]+ as slow with 3 at once as alone/);
    t.regex(report, /runsc-n3 − crun-n3/);
    t.regex(report, /lazy-n3 − lazy-n1/);
    t.regex(report, /Under lazy, alone is one launch reading the image on demand through a mount made fresh for it\./);
    t.regex(
      report,
      /Arriving one after another \(open loop, 3 launches a train\), each launch took ×[\d.]+ as long as alone under crun \(at most \d in flight at 50\/s\)/,
    );
    t.regex(report, /## Open loop: arrivals at a fixed rate/);
    t.true(existsSync(join(out, 'concurrency-curve.svg')));
    for (const folder of [...r.stderr.matchAll(/bursts in (\S+)/g)].map((m) => m[1]!)) {
      t.deepEqual(sandboxLeftovers(folder), [], folder);
      t.false(existsSync(folder));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
