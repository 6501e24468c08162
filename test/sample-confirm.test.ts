// design.confirm on real processes: a small pipeline derived from
// pipelines/smoke.yaml (plain `sh -c` paths, no root) with 3 sessions, where
// the `drift` path sleeps 10, 30 and 50 ms in cohort `echo` depending on the
// session (30 ms in the confirmation session) (so drift − direct there has a two-level interval that excludes 0
// and a between-session t interval that does not: undecided) and a steady
// 30 ms in cohort `tail` (detected); paused − direct is detected in both.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import type { ConfirmRecord } from '../harness/experiment/confirm-work.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const PIPELINE = `experiment:
  name: confirm-mini
  question: Does design.confirm add one session for exactly the undecided differences?
cohorts:
  echo:
    command: [sh, -c, 'echo {marker}']
    expect: { exit_code: 0, stdout_patterns: ['^BENCHGRAPH-READY-'] }
  tail:
    command: [sh, -c, 'echo {marker}; sleep 0.01']
paths:
  direct:
    launch: ['{command}']
  drift:
    description: in cohort echo sleeps 10, 30, 50 ms in sessions 1 to 3 (30 after); in tail a steady 100 ms, so that tail's difference is decided on any host (30 ms was undecided on a slow host class, 2026-12-07)
    launch: [sh, -c, 'case "$1/$2" in echo/*session-1-a*) s=0.01;; echo/*session-2-a*) s=0.03;; echo/*session-3-a*) s=0.05;; echo/*) s=0.03;; *) s=0.1;; esac; sleep $s; shift 2; exec "$@"', drift, '{cohort}', '{session_dir}', '{command}']
  paused:
    launch: [sh, -c, 'sleep 0.05; exec "$@"', paused, '{command}']
design:
  sessions: 3
  preflight: 1
  warmup_rounds: 1
  rounds: 3
  seed: confirm-1
  timeout_s: 10
  disk_probe_mb: 0
  confirm: true
analysis:
  comparisons:
    - { a: drift, b: direct }
    - { a: paused, b: direct }
  bootstrap:
    resamples: 300
stages:
  - id: warmup
    uses: warmup
  - id: sample
    uses: sample
    needs: [warmup]
  - id: analyze
    uses: analyze
    needs: [sample]
  - id: report
    uses: report
    needs: [analyze, sample]
`;

function project(text = PIPELINE): string {
  const dir = tempDir('benchgraph-confirm-');
  writeFileSync(join(dir, 'pipeline.yaml'), text);
  return dir;
}

function stageOutputs(dir: string, kind: string): string {
  const base = join(dir, '.data', 'stages', kind);
  const [key] = readdirSync(base);
  return join(base, key!, 'outputs');
}

async function sampleRows(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await Database.open(join(stageOutputs(dir, 'sample'), 'samples.duckdb'), { readOnly: true });
  try {
    return await db.all(sql);
  } finally {
    db.close();
  }
}

const cellsOf = (rows: Record<string, unknown>[]): string[] => rows.map((r) => `${String(r['cohort'])}/${String(r['path'])}/${String(r['state'])}`);

test('confirmation adds exactly one session for exactly the undecided differences', async (t) => {
  const dir = project();
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);
  // how many of echo drift − direct's differences (2 states × 2 metrics) stay undecided depends on the measured times
  // (one of them was decided on a fresh clone's run): the count said is the record's, and the visit is drift's
  const said = /confirmation: (\d+) differences? undecided after 3 sessions: session 4 added over echo: direct, drift/.exec(r.stderr);
  t.truthy(said, r.stderr);
  const confirm = JSON.parse(readFileSync(join(stageOutputs(dir, 'sample'), 'confirm.json'), 'utf8')) as ConfirmRecord;
  t.is(Number(said![1]), confirm.undecided.length);
  t.is(confirm.session, 4);
  t.deepEqual(confirm.visits, [{ cohort: 'echo', paths: ['direct', 'drift'] }]);
  t.deepEqual([...new Set(confirm.undecided.map((d) => `${d.cohort}: ${d.a} − ${d.b}`))], ['echo: drift − direct']);
  // Session 4 is the only extra one, and every launch of it (preflight, warmup, formal) is of echo × {direct, drift}; its host canary is the host's, of no path.
  const sessions = await sampleRows(dir, `SELECT DISTINCT session FROM samples ORDER BY 1`);
  t.deepEqual(
    sessions.map((s) => Number(s['session'])),
    [1, 2, 3, 4],
  );
  const extra = await sampleRows(dir, `SELECT DISTINCT cohort, path, state FROM samples WHERE session = 4 AND phase <> 'canary' ORDER BY ALL`);
  t.deepEqual(cellsOf(extra), ['echo/direct/cold', 'echo/direct/warm', 'echo/drift/cold', 'echo/drift/warm']);
  const formal = await sampleRows(dir, `SELECT count(*) AS n, count(DISTINCT round) AS rounds FROM samples WHERE session = 4 AND phase = 'formal'`);
  t.deepEqual([Number(formal[0]!['n']), Number(formal[0]!['rounds'])], [3 * 2 * 2, 3]); // the design's 3 rounds of 2 paths × 2 states
  const warmup = await sampleRows(dir, `SELECT count(*) AS n FROM samples WHERE session = 4 AND phase = 'warmup'`);
  t.is(Number(warmup[0]!['n']), 1 * 2 * 2); // the design's 1 warmup round, over the same cells
  const planned = await sampleRows(dir, `SELECT count(*) AS n FROM samples WHERE session <= 3 AND phase = 'formal'`);
  t.is(Number(planned[0]!['n']), 3 * 2 * 3 * 3 * 2); // untouched: 3 sessions × 2 cohorts × 3 rounds × 3 paths × 2 states

  // The analysis judges echo drift − direct on 4 sessions, every other difference (and every cell the extra session did not visit) on 3.
  const a = JSON.parse(readFileSync(join(stageOutputs(dir, 'analyze'), 'analysis.json'), 'utf8')) as AnalysisResult;
  t.deepEqual(a.confirmation, { plannedSessions: 3, session: 4 });
  for (const d of a.differences) {
    const undecided = d.cohort === 'echo' && d.a === 'drift';
    t.is(d.sessions, undecided ? 4 : 3, `${d.cohort} ${d.a} − ${d.b} ${d.state} ${d.metric}`);
    t.is(d.confirmation?.visited, undecided);
    // which of drift's differences were undecided on the planned sessions is the record's (the measured times decide it)
    const wasUndecided = confirm.undecided.some((u) => u.cohort === d.cohort && u.state === d.state && u.metric === d.metric && u.a === d.a && u.b === d.b);
    t.true(!wasUndecided || undecided, 'only drift − direct differences were undecided');
    t.is(d.confirmation?.verdictBefore, wasUndecided ? 'undecided' : 'detected');
  }
  for (const c of a.cells) t.is(c.sessions.length, c.cohort === 'echo' && c.path !== 'paused' ? 4 : 3, `${c.cohort}/${c.path}/${c.state}`);
  // counts that rest on the measured times are checked for agreement between the record, the analysis and the report, not for a value
  const next = a.nextRun.confirmation!;
  t.true(next.undecided >= 1 && next.cells >= 1, JSON.stringify(next));
  t.log(a.differences.filter((d) => d.confirmation?.visited).map((d) => `${d.state} ${d.metric}: ${d.confirmation!.verdictAfter}`));

  // The report says it once in Sessions (with the confirmed ones listed) and once in Method, and gives the cost in the next-run plan.
  const md = readFileSync(join(stageOutputs(dir, 'report'), 'report.md'), 'utf8');
  const sectionOf = (title: string): string => md.split(/^## /m).find((s) => s.startsWith(title)) ?? '';
  t.is(md.split('Confirmation was on:').length - 1, 1);
  const was =
    /Confirmation was on: (\d+) differences? (?:were|was) undecided after the 3 planned sessions .*session 4 ran over only their cohorts and paths/.exec(
      sectionOf('Sessions'),
    );
  t.is(Number(was?.[1]), confirm.undecided.length, sectionOf('Sessions'));
  const plan =
    /With design\.confirm on, the next run would add one session over the (\d+) cells? of the (\d+) differences? undecided here: [\d,]+ launches/.exec(
      sectionOf('Sessions'),
    );
  t.deepEqual([Number(plan?.[1]), Number(plan?.[2])], [next.cells, next.undecided], sectionOf('Sessions'));
  t.regex(sectionOf('Method'), /Confirmation was on \(design\.confirm\): after the 3 planned sessions/);
  t.regex(sectionOf('Method'), /Each of the 3 sessions started every service afresh and ran 3 formal rounds per cohort/);
  const confirmed = a.differences.filter((d) => d.confirmation?.confirmed);
  for (const d of confirmed) t.true(sectionOf('Sessions').includes(`- ${d.a} − ${d.b}, cohort ${d.cohort}, ${d.state}, `), `${d.state} ${d.metric} listed`);
});

test('an interrupted confirmation session resumes, and the rerun adds no session 5', async (t) => {
  const dir = project();
  await new Promise<void>((resolve, reject) => {
    const child = startCli(['run'], dir);
    let err = '';
    let armed = false;
    child.stderr!.on('data', (b) => {
      err += b;
      if (!armed && /session 4\/4 echo formal round 1\//.test(err)) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), 150);
      }
    });
    child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`ended by itself (${code}): ${err}`))));
  });
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);
  t.notRegex(r.stderr, /session [123]\/3/); // the planned sessions were complete: none ran again
  const perSession = await sampleRows(
    dir,
    `SELECT session, count(*) AS n, count(DISTINCT launch_id) AS ids, count(DISTINCT cohort || '/' || path) AS cells FROM samples WHERE phase = 'formal' GROUP BY ALL ORDER BY 1`,
  );
  // which cells session 4 confirms rests on the measured times (tail's drift − direct was undecided in one CI run): the
  // record says, and session 4 holds exactly its 3 rounds × 2 states of each, every launch once
  const confirm = JSON.parse(readFileSync(join(stageOutputs(dir, 'sample'), 'confirm.json'), 'utf8')) as ConfirmRecord;
  const cells = confirm.visits.reduce((n, v) => n + v.paths.length, 0);
  t.true(cells >= 2, JSON.stringify(confirm.visits));
  t.deepEqual(
    perSession.map((s) => [Number(s['session']), Number(s['n']), Number(s['ids']), Number(s['cells'])]),
    [
      [1, 36, 36, 6],
      [2, 36, 36, 6],
      [3, 36, 36, 6],
      [4, cells * 6, cells * 6, cells],
    ],
  );
});

test('confirm off: exactly the planned sessions and no confirm.json', async (t) => {
  const dir = project(PIPELINE.replace('  confirm: true\n', ''));
  const r = await runCli(['run', '--set', 'design.rounds=2'], dir);
  t.is(r.code, 0, r.stderr);
  t.notRegex(r.stderr, /confirmation/);
  const sessions = await sampleRows(dir, `SELECT DISTINCT session FROM samples ORDER BY 1`);
  t.deepEqual(
    sessions.map((s) => Number(s['session'])),
    [1, 2, 3],
  );
  t.false(existsSync(join(stageOutputs(dir, 'sample'), 'confirm.json')));
  const a = JSON.parse(readFileSync(join(stageOutputs(dir, 'analyze'), 'analysis.json'), 'utf8')) as AnalysisResult;
  t.is(a.confirmation, undefined);
  t.true(a.differences.every((d) => d.confirmation === undefined));
});

test('design.confirm of the wrong type is a one-line user error naming file, line and key (exit 2)', async (t) => {
  const dir = project(PIPELINE.replace('  confirm: true\n', '  confirm: 3\n'));
  const r = await runCli(['run', '--dry-run'], dir);
  t.is(r.code, 2);
  const line = PIPELINE.split('\n').indexOf('  confirm: true') + 1;
  t.regex(r.stderr, new RegExp(`^error: pipeline\\.yaml:${line}:\\d+: design\\.confirm: must be boolean`));
  t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
});
