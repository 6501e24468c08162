// A data folder owns its state (issue 47 item 3): every run writes the data
// folder's own record of the lock beside the lock next to the pipeline file,
// and audit, status and show read the folder's record. So a second run of the
// same pipeline in a second data folder leaves the first folder's audit clean,
// where before it printed MISSING/CHANGED for every stage; and the lock
// records the run's --set values, which status names. Real smoke runs.
import test from 'ava';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, runCli, smokeProject } from './helpers/cli.js';
import { folderLockPath, lockPathFor } from '../harness/engine/lock-file.js';

const stagesOf = (file: string): Record<string, { outputDigest: string }> =>
  (JSON.parse(readFileSync(file, 'utf8')) as { stages: Record<string, { outputDigest: string }> }).stages;

test('a run in a second data folder leaves the first folder audit-clean, each folder with its own lock record', async (t) => {
  const dir = smokeProject();
  const first = await runCli(['run', ...QUICK], dir);
  t.is(first.code, 0, first.stderr);
  const second = await runCli(['run', ...QUICK, '--data', 'data2'], dir);
  t.is(second.code, 0, second.stderr);
  const pipeline = join(dir, 'pipeline.yaml');
  const [own1, own2] = [folderLockPath(pipeline, join(dir, '.data')), folderLockPath(pipeline, join(dir, 'data2'))];
  t.true(existsSync(own1) && existsSync(own2), readdirSync(join(dir, '.data')).join(', '));
  // the two runs sampled apart: their sample outputs differ, and the lock beside the file is the last run's
  t.not(stagesOf(own1)['sample']!.outputDigest, stagesOf(own2)['sample']!.outputDigest);
  t.deepEqual(stagesOf(lockPathFor(pipeline)), stagesOf(own2));
  for (const data of [[], ['--data', 'data2']]) {
    const audit = await runCli(['audit', ...data], dir);
    t.is(audit.code, 0, `audit ${data.join(' ')}: ${audit.stdout}${audit.stderr}`);
    t.regex(audit.stdout, /, 0 problems$/m);
  }
  // the published report is data2's run: the first folder's audit says so instead of comparing it with its own
  t.regex(
    (await runCli(['audit'], dir)).stdout,
    /^reports\/smoke: published from another data folder's run \(output [0-9a-f]{12} in the lock beside the pipeline file\), not compared with this folder's report; audit that folder with --data$/m,
  );
  const status = await runCli(['status', ...QUICK], dir);
  t.is(status.code, 0, status.stderr);
  t.notRegex(status.stdout, /lock names key/);
  t.notRegex(status.stderr, /the lock was made with/);
  // the lock records the --set values the run used, and status without them says so (#47 item 8)
  t.deepEqual((JSON.parse(readFileSync(own1, 'utf8')) as { set: string[] }).set, [QUICK[1], QUICK[3]]);
  const plain = await runCli(['status'], dir);
  t.is(plain.code, 0, plain.stderr);
  t.true(plain.stderr.includes(`the lock was made with --set ${QUICK[1]} --set ${QUICK[3]}; this status uses no --set`), plain.stderr);
  const show = await runCli(['show', 'sample'], dir);
  t.is(show.code, 0, show.stderr);
  t.is((JSON.parse(show.stdout) as { outputDigest: string }).outputDigest, stagesOf(own1)['sample']!.outputDigest);
});
