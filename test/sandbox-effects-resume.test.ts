// Real gVisor (root only; CI runs it as root): the effect-table experiment
// runs in sessions through the one scheduler and journal, so a run stopped in
// its second session resumes there: session 1 is kept whole, the incomplete
// round is discarded, and no launch is counted twice.
import test from 'ava';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { projectRoot, runCli, startCli, tempDir } from './helpers/cli.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('sandbox-effects-resume: skipped, needs root and runsc; CI runs it as root');

const SETS = ['--set', 'design.sessions=2', '--set', 'design.rounds=3'];

rootTest('an effect run stopped in its second session resumes there and counts no launch twice', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-fx-resume-');
  try {
    cpSync(join(projectRoot, 'pipelines', 'sandbox-effects-mini.fragment.yaml'), join(dir, 'pipeline.yaml'));
    const code = await new Promise<number | null>((resolve) => {
      const child = startCli(['run', ...SETS], dir);
      let err = '';
      let armed = false;
      child.stderr!.on('data', (b: Buffer) => {
        err += b.toString();
        if (!armed && /session 2\/2 slow-disk formal round 1\//.test(err)) {
          armed = true;
          child.kill('SIGINT');
        }
      });
      child.on('close', (c) => resolve(c));
    });
    t.is(code, 130, 'the first run was stopped by the signal');
    const r = await runCli(['run', '--json', ...SETS], dir);
    t.is(r.code, 0, r.stderr.slice(-2000));
    t.notRegex(r.stderr, /session 1 slow-disk: (discarding|\d+ formal rounds already complete)/, 'session 1 was complete and is not touched');
    t.regex(r.stderr, /session 2 slow-disk: 1 formal rounds already complete, 2 to go/);
    const base = join(dir, '.data', 'stages', 'effects-sample');
    const db = await Database.open(join(base, readdirSync(base)[0]!, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      const perSession = await db.all(
        `SELECT session, count(*) AS n, count(DISTINCT launch_id) AS ids, count(DISTINCT (round, path)) AS cells FROM samples WHERE phase = 'formal' GROUP BY ALL ORDER BY 1`,
      );
      t.deepEqual(
        perSession.map((s) => [Number(s['session']), Number(s['n']), Number(s['ids']), Number(s['cells'])]),
        [
          [1, 6, 6, 6],
          [2, 6, 6, 6],
        ],
      );
      const attempts = await db.all(
        `SELECT DISTINCT session, regexp_extract(launch_id, '\\.a([0-9]+)$', 1) AS a FROM samples WHERE phase = 'formal' ORDER BY 1, 2`,
      );
      t.deepEqual(
        attempts.map((a) => `${a['session']}:${a['a']}`),
        ['1:1', '2:1', '2:2'],
        'session 1 ran whole in the first attempt; session 2 kept its complete round of the first and ran the rest in the second',
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
