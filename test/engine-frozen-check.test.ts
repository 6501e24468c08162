import test from 'ava';
import { closeSync, openSync, readFileSync, readSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, executions, runCli, smokeProject } from './helpers/cli.js';

async function frozenProject(): Promise<string> {
  const dir = smokeProject();
  const r = await runCli(['run', ...QUICK], dir);
  if (r.code !== 0) throw new Error(r.stderr);
  return dir;
}

function stageDirOf(dir: string, id: string): string {
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { uses: string; key: string }> };
  const e = lock.stages[id]!;
  return join(dir, '.data', 'stages', e.uses, e.key);
}

/** Flips every bit of one byte in the middle of a file, in place (same size). */
function flipByte(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    const size = readFileSync(file).length;
    const at = Math.floor(size / 2);
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, at);
    b[0] = b[0]! ^ 0xff;
    writeSync(fd, b, 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

function refusal(t: import('ava').ExecutionContext, r: { code: number | null; stderr: string }, stage: string, file: RegExp): void {
  t.is(r.code, 1, r.stderr);
  t.regex(r.stderr, new RegExp(`stage '${stage}': frozen output \\S*${file.source}`));
  t.regex(r.stderr, new RegExp(`--force ${stage}`));
}

test('a frozen output with a flipped byte is refused before reuse, naming the stage, the file and --force', async (t) => {
  const dir = await frozenProject();
  flipByte(join(stageDirOf(dir, 'analyze'), 'outputs', 'analysis.json'));
  const before = executions(dir).length;
  const r = await runCli(['run', ...QUICK], dir);
  refusal(t, r, 'analyze', /outputs\/analysis\.json was modified after it was frozen/);
  t.is(executions(dir).length, before, 'nothing ran');
});

test('a truncated frozen output is refused before reuse', async (t) => {
  const dir = await frozenProject();
  const file = join(stageDirOf(dir, 'sample'), 'outputs', 'samples.duckdb');
  truncateSync(file, 100);
  refusal(t, await runCli(['run', ...QUICK], dir), 'sample', /outputs\/samples\.duckdb has 100 bytes/);
});

test('a frozen stage whose manifest was deleted is refused before reuse', async (t) => {
  const dir = await frozenProject();
  rmSync(join(stageDirOf(dir, 'report'), 'manifest.json'));
  refusal(t, await runCli(['run', ...QUICK], dir), 'report', /manifest\.json is missing/);
});

test('a manifest whose recorded digest was altered is refused before reuse', async (t) => {
  const dir = await frozenProject();
  const file = join(stageDirOf(dir, 'analyze'), 'manifest.json');
  const m = readFileSync(file, 'utf8');
  const sha = /"sha256": "([0-9a-f])/.exec(m)!;
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, m.replace(sha[0], `"sha256": "${sha[1] === '0' ? '1' : '0'}`));
  refusal(t, await runCli(['run', ...QUICK], dir), 'analyze', /manifest\.json does not match its own output digest/);
});

test('a refused run leaves the lock file as it was', async (t) => {
  const dir = await frozenProject();
  const lock = readFileSync(join(dir, 'pipeline.lock'), 'utf8');
  truncateSync(join(stageDirOf(dir, 'analyze'), 'outputs', 'analysis.json'), 3);
  t.is((await runCli(['run', ...QUICK], dir)).code, 1);
  t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), lock);
});

test('--force STAGE rebuilds a corrupted frozen output, and audit is clean afterwards', async (t) => {
  const dir = await frozenProject();
  const sampleDir = stageDirOf(dir, 'sample');
  truncateSync(join(sampleDir, 'outputs', 'samples.duckdb'), 100);
  rmSync(join(stageDirOf(dir, 'report'), 'manifest.json'));
  const r = await runCli(['run', '--json', ...QUICK, '--force', 'sample,report'], dir);
  t.is(r.code, 0, r.stderr);
  const ran = (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { stages: { id: string; action: string }[] }).stages
    .filter((s) => s.action === 'ran')
    .map((s) => s.id);
  t.true(ran.includes('sample') && ran.includes('report'), ran.join(','));
  const audit = await runCli(['audit', ...QUICK], dir);
  t.is(audit.code, 0, audit.stdout + audit.stderr);
  const again = await runCli(['run', '--json', ...QUICK], dir);
  t.is(again.code, 0, again.stderr);
  t.notRegex(again.stdout, /"action":"ran"/);
});

test('an untouched frozen store is reused without any refusal', async (t) => {
  const dir = await frozenProject();
  const r = await runCli(['run', '--json', ...QUICK], dir);
  t.is(r.code, 0, r.stderr);
  t.notRegex(r.stdout, /"action":"ran"/);
});
