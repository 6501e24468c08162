// Real gVisor (root only; CI runs it as root): the fourth experiment on the
// model, a YAML file plus one arm adapter, runs end to end: per heap size a
// checkpoint restore against a fresh start, cold and warm, in two sessions,
// through the shared analyze and report stages, and leaves nothing behind.
import test from 'ava';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { runCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('real-restore-sweep: skipped, needs root and runsc; CI runs it as root');

rootTest('the restore sweep samples restore and start per heap size, cold and warm, in two sessions, and publishes the shared report', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-sweep-');
  try {
    writePipelineVariant(dir, 'restore-sweep-mini.fragment.yaml');
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr.slice(-2000));
    const out = join(dir, 'reports', 'restore-sweep-mini');
    const rows = parseSampleCsv(readFileSync(join(out, 'samples.csv'), 'utf8'), 'samples.csv').filter((s) => s['phase'] === 'formal');
    // 2 sessions x 2 heaps x 2 arms x 2 conditions x 2 rounds
    t.is(rows.length, 32);
    t.true(
      rows.every((s) => s['ok'] === true && typeof s['ready_ms'] === 'number'),
      'every launch printed its marker',
    );
    t.deepEqual([...new Set(rows.map((s) => `${s['cohort']}/${s['path']}/${s['state']}`))].sort(), [
      'heap-16mib/restore/cold',
      'heap-16mib/restore/warm',
      'heap-16mib/start/cold',
      'heap-16mib/start/warm',
      'heap-2mib/restore/cold',
      'heap-2mib/restore/warm',
      'heap-2mib/start/cold',
      'heap-2mib/start/warm',
    ]);
    t.regex(readFileSync(join(out, 'differences.csv'), 'utf8'), /heap-16mib,cold,ready,restore,start/);
    // REPRODUCE.md names only what the sweep uses: the requirements its sample stage recorded, none of another experiment's.
    const reproduce = readFileSync(join(out, 'REPRODUCE.md'), 'utf8');
    t.regex(reproduce, /runsc on PATH/);
    t.regex(reproduce, /drop_caches/);
    for (const word of [/docker/i, /\bcrun\b/, /mmdebstrap/i, /registry/i, /rclone/i]) t.notRegex(reproduce, word);
    for (const folder of [...r.stderr.matchAll(/checkpointed in (\S+)/g)].map((m) => m[1]!)) {
      t.deepEqual(sandboxLeftovers(folder), [], folder);
      t.false(existsSync(folder));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
