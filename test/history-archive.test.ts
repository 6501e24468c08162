import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, release } from 'node:os';
import { QUICK, runCli, smokeProject } from './helpers/cli.js';
import type { RunRecord } from '../harness/history/run-record.js';

const runsOf = (dir: string): string[] => {
  const runs = join(dir, 'reports', 'smoke', 'runs');
  return existsSync(runs) ? readdirSync(runs).sort() : [];
};

async function run(dir: string, ...extra: string[]): Promise<void> {
  const r = await runCli(['run', ...QUICK, ...extra], dir);
  if (r.code !== 0) throw new Error(r.stderr);
}

test('pipeline run files its published report as one archived run; a rerun with nothing new files nothing, a resampled run adds a second and keeps the first', async (t) => {
  const dir = smokeProject();
  await run(dir);
  const [first] = runsOf(dir);
  t.regex(first!, /^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/);
  const folder = join(dir, 'reports', 'smoke', 'runs', first!);
  const record = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as RunRecord;
  t.is(record.source, 'published');
  t.deepEqual(
    Object.keys(record.files).sort(),
    readdirSync(folder)
      .filter((n) => n !== 'run.json')
      .sort(),
  );
  t.truthy(record.stages?.['sample']?.config['design']);
  // every sampling session recorded this host's fingerprint
  t.true(record.sessions.length > 0);
  t.true(record.sessions.every((s) => s.fingerprint?.kernelRelease === release() && s.fingerprint.cpuCount === cpus().length));
  const before = readFileSync(join(folder, 'samples.csv'), 'utf8');
  await run(dir);
  t.deepEqual(runsOf(dir), [first]);
  await run(dir, '--force', 'sample');
  const after = runsOf(dir);
  t.is(after.length, 2);
  t.true(after.includes(first!));
  t.is(readFileSync(join(folder, 'samples.csv'), 'utf8'), before);
});

test('audit passes on a fresh archive and fails naming an archived file whose bytes changed', async (t) => {
  const dir = smokeProject();
  await run(dir);
  t.is((await runCli(['audit', ...QUICK], dir)).code, 0);
  const [id] = runsOf(dir);
  const file = join(dir, 'reports', 'smoke', 'runs', id!, 'statistics.csv');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/\d/, (d) => String((Number(d) + 1) % 10)),
  );
  const r = await runCli(['audit', ...QUICK], dir);
  t.is(r.code, 1);
  t.regex(r.stdout, new RegExp(`CHANGED\\s+reports/smoke/runs/${id}/statistics\\.csv\\s+\\(stage report archive\\)`));
});

test('history --import files an existing report folder as an archived run without recorded inputs, once', async (t) => {
  const dir = smokeProject();
  await run(dir);
  const copy = join(dir, 'elsewhere', 'smoke');
  cpSync(join(dir, 'reports', 'smoke'), copy, { recursive: true, filter: (src) => !src.includes('/runs') });
  const other = smokeProject();
  const r = await runCli(['history', '--import', copy, '--label', 'v1', '--json'], other);
  t.is(r.code, 0, r.stderr);
  const [id] = runsOf(other);
  const record = JSON.parse(readFileSync(join(other, 'reports', 'smoke', 'runs', id!, 'run.json'), 'utf8')) as RunRecord;
  t.like(record, { source: 'imported', stages: null, label: 'v1', experiment: 'smoke' });
  const again = await runCli(['history', '--import', copy], other);
  t.regex(again.stderr, /already archived/);
  t.is(runsOf(other).length, 1);
});

test('history --import of a folder that is not a report is a user error naming the folder', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['history', '--import', join(dir, 'nowhere')], dir);
  t.is(r.code, 2);
  t.regex(r.stderr, /^error: .*nowhere: no such report folder/);
});

test('pipeline run --label files the archived run with that label, and a label alone never reruns a stage', async (t) => {
  const dir = smokeProject();
  await run(dir, '--label', 'release 1.2');
  const [id] = runsOf(dir);
  const record = JSON.parse(readFileSync(join(dir, 'reports', 'smoke', 'runs', id!, 'run.json'), 'utf8')) as RunRecord;
  t.is(record.label, 'release 1.2');
  const again = await runCli(['run', ...QUICK, '--label', 'release 1.3', '--json'], dir);
  const stages = (JSON.parse(again.stdout.trim().split('\n').at(-1)!) as { stages: { action: string }[] }).stages;
  t.true(stages.every((s) => s.action === 'reused'));
});
