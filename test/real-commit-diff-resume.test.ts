// Real engines (root only): a commit-diff-mini run stopped by SIGTERM in the
// middle of sampling resumes at the first unfinished cell-round, keeps the
// finished ones and counts nothing twice.
import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, startCli, tempDir } from './helpers/cli.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { Database } from '../harness/db/duckdb.js';
import { takeTurnsWithOverlayUsers } from './helpers/overlay-users.js';

takeTurnsWithOverlayUsers();

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;

rootTest('a commit-diff run interrupted after its first cell-round resumes there and ends with every commit exactly once', async (t) => {
  t.timeout(400_000);
  const dir = tempDir('bg-commit-resume-');
  const yaml = readFileSync(join(projectRoot, 'pipelines', 'commit-diff-mini.fragment.yaml'), 'utf8');
  t.regex(yaml, /compression: \{[^}]*rounds: 1 \}/);
  cpSync(join(projectRoot, 'pipelines', 'commit-diff.yaml'), join(dir, 'commit-diff.yaml')); // the file it extends
  writeFileSync(join(dir, 'pipeline.yaml'), yaml.replace(/(compression: \{[^}]*rounds: )1 \}/, '$10 }')); // sampling only
  const child = startCli(['run'], dir);
  let stderr = '';
  let killed = false;
  const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
    // third workload line: the first cell-round is finished on both engines, the second is under way
    if (!killed && (stderr.match(/formal round \d+ \S+ (naive|native):/g) ?? []).length >= 3) {
      killed = true; // once: a second SIGTERM means "exit now, skip the undo"
      child.kill('SIGTERM');
    }
  });
  t.not(await closed, 0, 'the interrupted run fails');
  const second = await runCli(['run'], dir);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stderr, /session 1 \S+: 1 formal rounds already complete, 1 to go/); // how many rows of the unfinished one reached the journal depends on when the signal lands
  const base = join(dir, '.data', 'stages', 'commit-sample');
  const db = await Database.open(join(base, readdirSync(base)[0]!, 'outputs', 'samples.duckdb'), { readOnly: true });
  try {
    const rows = await db.all("SELECT cohort, round, path, state, count(*) AS n FROM samples WHERE phase = 'formal' GROUP BY ALL");
    t.is(rows.length, 16, '2 cells x 2 rounds x 2 methods x 2 states');
    t.true(rows.every((r) => Number(r['n']) === 1));
  } finally {
    db.close();
  }
  t.deepEqual(mountsUnder(dir), [], `first run:\n${stderr.slice(-3000)}\nsecond run:\n${second.stderr.slice(-1500)}`);
  if (mountsUnder(dir).length === 0 && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
});
