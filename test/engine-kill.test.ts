// SIGKILL of `pipeline run` in the middle of sampling, then a rerun.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { runCli, smokeProject, startCli } from './helpers/cli.js';

const ROUNDS = 12;
const SETS = ['--set', `design.rounds=${ROUNDS}`, '--set', 'analysis.bootstrap.resamples=200'];

/** A smoke project whose paused path waits 200 ms, so a round lasts about a second. */
function slowProject(): string {
  const dir = smokeProject();
  const file = join(dir, 'pipeline.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('sleep 0.05', 'sleep 0.2'));
  return dir;
}

/** SIGKILL 300 ms after a round line appears: in the middle of the next round. */
function killWhen(dir: string, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = startCli(['run', ...SETS], dir);
    let err = '';
    let armed = false;
    child.stderr!.on('data', (b) => {
      err += b;
      if (!armed && pattern.test(err)) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), 300);
      }
    });
    child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve(err) : reject(new Error(`run ended by itself (${code}): ${err}`))));
  });
}

for (const [where, pattern, cohort, partial] of [
  ['in the first cohort', /echo formal round 4\//, 'echo', 5],
  ['in the second cohort', /tail formal round 2\//, 'tail', 3],
] as const) {
  test(`after SIGKILL during sampling ${where}, a rerun ends with exactly the formal rounds, no duplicates and no killed round`, async (t) => {
    const dir = slowProject();
    await killWhen(dir, pattern);
    // nothing half-written counts as frozen
    t.false(existsSync(join(dir, '.data', 'stages', 'sample')));
    const r = await runCli(['run', '--json', ...SETS], dir);
    t.is(r.code, 0, r.stderr);
    // The kill lands in round `partial` unless the machine is so slow that round had not begun: then no round is partial.
    t.regex(
      r.stderr,
      new RegExp(`session 1 ${cohort}: (discarding incomplete round\\(s\\) ${partial} of an interrupted run|${partial - 1} formal rounds already complete)`),
    );
    const base = join(dir, '.data', 'stages', 'sample');
    const [key] = readdirSync(base);
    const db = await Database.open(join(base, key!, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      const cells = await db.all(
        `SELECT cohort, path, state, count(*) AS n, count(DISTINCT round) AS rounds FROM samples WHERE phase = 'formal' GROUP BY ALL ORDER BY ALL`,
      );
      t.is(cells.length, 2 * 2 * 2);
      for (const c of cells) {
        t.is(Number(c['n']), ROUNDS);
        t.is(Number(c['rounds']), ROUNDS);
      }
      const dup = await db.one(`SELECT count(*) - count(DISTINCT launch_id) AS d FROM samples`);
      t.is(Number(dup!['d']), 0);
      // Rounds are taken from two attempts of the one session; the killed attempt's rows of its last round are gone.
      const attempts = await db.all(`SELECT DISTINCT regexp_extract(launch_id, '\\.a([0-9]+)$', 1) AS a FROM samples WHERE phase = 'formal' ORDER BY 1`);
      t.deepEqual(
        attempts.map((s) => s['a']),
        ['1', '2'],
      );
      const perRound = await db.all(
        `SELECT cohort, round, count(DISTINCT regexp_extract(launch_id, '\\.a([0-9]+)$', 1)) AS a FROM samples WHERE phase = 'formal' GROUP BY ALL HAVING a > 1`,
      );
      t.deepEqual(perRound, [], 'every formal round comes from one attempt');
      const sessions = await db.all(`SELECT DISTINCT session FROM samples`);
      t.deepEqual(
        sessions.map((s) => Number(s['session'])),
        [1],
      );
    } finally {
      db.close();
    }
  });
}
