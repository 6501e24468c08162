// Real engine tests (root only; CI runs them as root): `pipeline run` of the
// sandbox-effects-mini experiment (busybox image, real gVisor restores from a
// blkio-throttled loop disk vs tmpfs, and a Firecracker row) publishes the
// effect report and leaves nothing behind; a bootstrap change reruns only
// analysis and report.
import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, stagesRan, type CliResult, tempDir } from './helpers/cli.js';
import { sandboxLeftovers } from './helpers/sandbox-leftovers.js';
import { Database } from '../harness/db/duckdb.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.serial.skip;
if (!isRoot) console.warn('sandbox-effects-pipeline: skipped, needs root and runsc; CI runs it as root');

let dir = '';
let first: CliResult;

test.before(async () => {
  if (!isRoot) return;
  dir = tempDir('bg-fx-pipeline-');
  cpSync(join(projectRoot, 'pipelines', 'sandbox-effects-mini.fragment.yaml'), join(dir, 'pipeline.yaml'));
  first = await runCli(['run'], dir);
});

test.after.always(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

rootTest('pipeline run of sandbox-effects-mini publishes a measured gVisor row and a not-runnable Firecracker row, and leaves nothing', async (t) => {
  t.timeout(180_000);
  t.is(first.code, 0, first.stderr.slice(-2000));
  const out = join(dir, 'reports', 'sandbox-effects-mini');
  const samples = parseSampleCsv(readFileSync(join(out, 'samples.csv'), 'utf8'), 'samples.csv');
  // the host canary's launches (phase canary, cohort host) are every session's host reference, not a row's
  const rows = samples.filter((s) => s['phase'] !== 'canary');
  t.true(rows.length > 0 && rows.every((s) => s['cohort'] === 'slow-disk' && s['ok'] === true), 'only the runnable row has samples, none failed');
  t.true(
    samples.filter((s) => s['phase'] === 'canary').every((s) => s['cohort'] === 'host'),
    'canary launches are the host reference',
  );
  t.true(
    rows.every((s) => typeof s['settle_ms'] === 'number'),
    'every launch of a row was settled and says so',
  );
  const key = readdirSync(join(dir, '.data', 'stages', 'effects-sample'))[0]!;
  const db = await Database.open(join(dir, '.data', 'stages', 'effects-sample', key, 'outputs', 'samples.duckdb'), { readOnly: true });
  try {
    const n = await db.one('SELECT count(*) AS n FROM samples WHERE ok');
    t.is(Number(n!['n']), samples.length, 'the DuckDB table holds the same launches as the CSV');
  } finally {
    db.close();
  }
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  t.regex(md, /\| firecracker is not installed \(it has no Debian package\) \| `[a-z0-9-]+`/);
  const rowDir = /work folder (\S+)/.exec(first.stderr)?.[1];
  t.truthy(rowDir);
  t.deepEqual(sandboxLeftovers(rowDir!), []);
  t.false(existsSync(rowDir!));
});

rootTest('changing the bootstrap of the effects section reruns analysis and report, never the sampling', async (t) => {
  t.timeout(60_000);
  const again = await runCli(['run', '--set', 'analysis.bootstrap.resamples=300', '--json'], dir);
  t.is(again.code, 0, again.stderr.slice(-2000));
  t.deepEqual(stagesRan(again).sort(), ['effects-analyze', 'effects-report']);
});
