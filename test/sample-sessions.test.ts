// Independent sessions: the session and host columns through sampling, resume
// and import (real pipeline runs of the smoke experiment, real DuckDB files).
import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { runCli, smokeProject, startCli } from './helpers/cli.js';

const SETS = ['--set', 'design.sessions=2', '--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=200'];

async function sampleRows(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const base = join(dir, '.data', 'stages', 'sample');
  const [key] = readdirSync(base);
  const db = await Database.open(join(base, key!, 'outputs', 'samples.duckdb'), { readOnly: true });
  try {
    return await db.all(sql);
  } finally {
    db.close();
  }
}

test('two sessions journal every formal round once per session, with the session number and the host name', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', ...SETS], dir);
  t.is(r.code, 0, r.stderr);
  const cells = await sampleRows(
    dir,
    `SELECT session, cohort, path, state, count(*) AS n, count(DISTINCT round) AS rounds FROM samples WHERE phase = 'formal' GROUP BY ALL ORDER BY ALL`,
  );
  t.is(cells.length, 2 * 2 * 2 * 2);
  for (const c of cells) t.is(Number(c['n']), 3);
  const hosts = await sampleRows(dir, `SELECT DISTINCT host FROM samples`);
  t.deepEqual(
    hosts.map((h) => h['host']),
    [hostname()],
  );
  // The second session has its own preflight; the first one's is the warmup stage.
  const preflight = await sampleRows(dir, `SELECT DISTINCT session FROM samples WHERE phase = 'preflight'`);
  t.deepEqual(
    preflight.map((p) => Number(p['session'])),
    [2],
  );
  const warmups = await sampleRows(dir, `SELECT session, count(*) AS n FROM samples WHERE phase = 'warmup' GROUP BY ALL ORDER BY 1`);
  t.deepEqual(
    warmups.map((w) => Number(w['session'])),
    [1, 2],
  );
});

test('a run killed in the second session resumes there: the first session is kept whole, nothing is counted twice', async (t) => {
  const dir = smokeProject();
  const file = join(dir, 'pipeline.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('sleep 0.05', 'sleep 0.2'));
  await new Promise<void>((resolve, reject) => {
    const child = startCli(['run', ...SETS], dir);
    let err = '';
    let armed = false;
    child.stderr!.on('data', (b) => {
      err += b;
      if (!armed && /session 2\/2 echo formal round 1\//.test(err)) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), 300);
      }
    });
    child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`ended by itself (${code}): ${err}`))));
  });
  const r = await runCli(['run', '--json', ...SETS], dir);
  t.is(r.code, 0, r.stderr);
  t.notRegex(r.stderr, /session 1 \w+: discarding/);
  const perSession = await sampleRows(
    dir,
    `SELECT session, count(*) AS n, count(DISTINCT launch_id) AS ids FROM samples WHERE phase = 'formal' GROUP BY ALL ORDER BY 1`,
  );
  t.deepEqual(
    perSession.map((s) => [Number(s['session']), Number(s['n']), Number(s['ids'])]),
    [
      [1, 24, 24],
      [2, 24, 24],
    ],
  );
  const attemptsOfSession1 = await sampleRows(
    dir,
    `SELECT DISTINCT regexp_extract(launch_id, '\\.a([0-9]+)$', 1) AS a FROM samples WHERE session = 1 AND phase = 'formal'`,
  );
  t.deepEqual(
    attemptsOfSession1.map((a) => a['a']),
    ['1'],
    'session 1 ran whole in the first attempt',
  );
  // The host canary of the interrupted session 2 was journaled before the kill; its resumption does not repeat it.
  const canary = await sampleRows(dir, `SELECT session, count(*) AS n FROM samples WHERE phase = 'canary' GROUP BY ALL ORDER BY 1`);
  t.deepEqual(
    canary.map((c) => [Number(c['session']), Number(c['n'])]),
    [
      [1, 25],
      [2, 25],
    ],
  );
});

test('import-samples keeps session and host columns and defaults them to 1 and unknown', async (t) => {
  const dir = smokeProject();
  const header = 'experiment,cohort,path,state,phase,round,order_in_round,launch_id,ok,started_at,ready_ms';
  const rows = ['e,c,a,cold,formal,1,0,x1,true,t,1.5', 'e,c,b,cold,formal,1,1,x2,true,t,2.5'];
  writeFileSync(join(dir, 'plain.csv'), [header, ...rows].join('\n') + '\n');
  writeFileSync(join(dir, 'sessions.csv'), [header + ',session,host', ...rows.map((r, i) => `${r},${i + 2},node${i}`)].join('\n') + '\n');
  const pipeline = (csv: string) => `experiment:\n  name: imp\n  question: q?\nstages:\n  - id: import\n    uses: import-samples\n    with: { file: ${csv} }\n`;
  for (const [csv, expected] of [
    [
      'plain.csv',
      [
        [1, 'unknown'],
        [1, 'unknown'],
      ],
    ],
    [
      'sessions.csv',
      [
        [2, 'node0'],
        [3, 'node1'],
      ],
    ],
  ] as const) {
    writeFileSync(join(dir, 'pipeline.yaml'), pipeline(csv));
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr);
    const base = join(dir, '.data', 'stages', 'import-samples');
    const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
    const db = await Database.open(join(base, lock.stages.import.key, 'outputs', 'samples.duckdb'), { readOnly: true });
    const got = await db.all('SELECT session, host FROM samples ORDER BY launch_id');
    db.close();
    t.deepEqual(
      got.map((g) => [Number(g['session']), g['host']]),
      expected.map((e) => [...e]),
    );
  }
});

test('every launch is journaled with its settle time, the dirty and writeback kB at its start, its previous path, and a balanced order', async (t) => {
  const dir = smokeProject();
  // 2 paths: a Williams cycle is 2 rounds, so 4 rounds are two full cycles per session.
  const r = await runCli(['run', '--set', 'design.sessions=1', '--set', 'design.rounds=4', '--set', 'analysis.bootstrap.resamples=200'], dir);
  t.is(r.code, 0, r.stderr);
  const rows = await sampleRows(
    dir,
    `SELECT cohort, path, state, round, order_in_round, previous_path, settle_ms, dirty_kb, writeback_kb, settle_timed_out FROM samples WHERE phase = 'formal'`,
  );
  t.is(rows.length, 2 * 2 * 2 * 4);
  for (const row of rows) {
    t.true(typeof row['settle_ms'] === 'number' && row['settle_ms'] >= 0, `settle_ms ${String(row['settle_ms'])}`);
    t.true(Number(row['dirty_kb']) >= 0 && Number(row['writeback_kb']) >= 0);
    t.is(typeof row['settle_timed_out'], 'boolean');
    t.is(row['previous_path'] === null, Number(row['order_in_round']) === 0, 'only the first path of a round has no previous path');
  }
  // Balanced: per cohort and state each path leads in exactly half of the rounds.
  for (const cohort of ['echo', 'tail']) {
    const leads = rows.filter((x) => x['cohort'] === cohort && x['state'] === 'cold' && Number(x['order_in_round']) === 0).map((x) => x['path']);
    t.deepEqual([...leads].sort(), ['direct', 'direct', 'paused', 'paused'], `${cohort}: ${leads.join(',')}`);
  }
});

test('each session records a disk probe of the data folder at its start and end with its host noise', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', '--set', 'design.rounds=1', '--set', 'design.disk_probe_mb=8', '--set', 'analysis.bootstrap.resamples=100'], dir);
  t.is(r.code, 0, r.stderr);
  const base = join(dir, '.data', 'stages', 'sample');
  const [key] = readdirSync(base);
  const sessions = JSON.parse(readFileSync(join(base, key!, 'observations', 'sessions.json'), 'utf8')) as {
    noise: unknown;
    disk?: { start: { state: string; writeMBps: number | null; bytes: number }; end: { state: string } };
  }[];
  t.is(sessions.length, 1);
  const disk = sessions[0]!.disk!;
  t.truthy(sessions[0]!.noise);
  t.is(disk.start.bytes, 8 * 1048576);
  t.true(disk.start.state !== 'skipped' ? disk.start.writeMBps! > 0 : true, JSON.stringify(disk.start));
  t.truthy(disk.end.state);
  t.deepEqual(
    readdirSync(join(dir, '.data')).filter((f) => f.startsWith('.benchgraph-disk-probe')),
    [],
    'the probe files are gone',
  );
});
