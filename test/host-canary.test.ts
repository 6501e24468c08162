// The host canary: its pieces run through the real launch helper and are
// journaled as phase 'canary' rows, a resumed session does not repeat them,
// and the formal statistics never see them (real smoke pipeline runs).
import test from 'ava';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { Database } from '../harness/db/duckdb.js';
import { journalHasSamples } from '../harness/db/journal-tables.js';
import { runHostCanary } from '../harness/experiment/host-canary.js';
import { CANARY_PIECES, CANARY_REPEATS } from '../harness/experiment/canary-plan.js';
import { hostCounterDelta, parseReclaim, type HostCounters } from '../harness/process/host-counters.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { runCli, smokeProject, tempDir } from './helpers/cli.js';

async function withJournal<T>(f: (journal: SampleJournal, dir: string) => Promise<T>): Promise<T> {
  const dir = tempDir('bg-canary-');
  const journal = await SampleJournal.open(join(dir, 'samples.duckdb'));
  try {
    return await f(journal, dir);
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const options = (journal: SampleJournal, dir: string, attempt: number) => ({
  on: true,
  experiment: 'canary-test',
  session: 1,
  attempt,
  dataDir: dir,
  signal: new AbortController().signal,
  journal,
  log: () => {},
});

test('every canary piece runs through the launch helper, is timed, and is journaled as its own phase canary row', async (t) => {
  await withJournal(async (journal, dir) => {
    const close = await runHostCanary(options(journal, dir, 1));
    const rows = await journal.rows();
    t.is(rows.length, CANARY_PIECES.length * CANARY_REPEATS);
    for (const piece of CANARY_PIECES) {
      const of = rows.filter((r) => r['path'] === piece);
      t.is(of.length, CANARY_REPEATS, piece);
      for (const r of of) {
        t.like(r, { phase: 'canary', cohort: 'host', state: 'none', session: 1, ok: true }, `${piece}: ${String(r['failure_reason'])}`);
        const ms = r['completion_ms'] as number;
        t.true(Number.isFinite(ms) && ms > 0, `${piece} completion ${ms}`);
      }
    }
    // The fs piece cleans up after itself in the data folder.
    t.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('.canary-')),
      [],
    );
    const record = close();
    t.is(record.canary?.launches, CANARY_PIECES.length * CANARY_REPEATS);
    t.true(Number.isFinite(record.canary!.wallMs) && record.canary!.wallMs > 0);
  });
});

test('a resumed session does not journal its canary again', async (t) => {
  await withJournal(async (journal, dir) => {
    await runHostCanary(options(journal, dir, 1));
    const again = (await runHostCanary(options(journal, dir, 2)))();
    t.is(again.canary?.launches, 0);
    t.truthy(again.canary?.skipped);
    t.is((await journal.rows()).filter((r) => r['phase'] === 'canary').length, CANARY_PIECES.length * CANARY_REPEATS);
  });
});

test('with design.canary off, no canary runs and the session record has none', async (t) => {
  await withJournal(async (journal, dir) => {
    const record = (await runHostCanary({ ...options(journal, dir, 1), on: false }))();
    t.deepEqual(record, {});
    t.is((await journal.rows()).length, 0);
  });
});

test('the reclaim sums count pages by reclaimer, not the by-type lines or throttle events (made-up data)', (t) => {
  const vmstat = [
    'pgsteal_kswapd 5',
    'pgsteal_direct 2',
    'pgscan_kswapd 10',
    'pgscan_direct 4',
    'pgscan_direct_throttle 9',
    'pgscan_anon 3',
    'pgscan_file 11',
    'pgsteal_anon 1',
    'pgsteal_file 6',
    'nr_free_pages 100',
  ].join('\n');
  t.deepEqual(parseReclaim(vmstat), { pgscan: 14, pgsteal: 7 });
});

test('the counter delta gives the steal share of all CPU ticks and pid 1 CPU in ms (made-up data)', (t) => {
  const at = (iso: string, steal: number, idle: number, pid1: number): HostCounters => ({
    takenAt: iso,
    cpu: { user: 100, nice: 0, system: 50, idle, iowait: 0, irq: 0, softirq: 0, steal },
    clockTicksPerSecond: 100,
    cpuMhz: 2000,
    cpuMhzSource: 'cpuinfo',
    pgscan: 0,
    pgsteal: 0,
    cachedBytes: 1,
    pid1CpuTicks: pid1,
  });
  const d = hostCounterDelta(at('2026-01-01T00:00:00.000Z', 10, 1000, 5), at('2026-01-01T00:00:10.000Z', 20, 1090, 17));
  t.is(d.wallMs, 10_000);
  t.is(d.stealShare, 10 / 100);
  t.is(d.pid1CpuMs, 120);
});

function stageOutput(dir: string, stage: string, file: string): string {
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { key: string }> };
  return join(dir, '.data', 'stages', stage, lock.stages[stage]!.key, 'outputs', file);
}

test('the smoke pipeline with its canary keeps canary rows out of the formal statistics and carries a canary section in analysis.json and the report', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', '--set', 'design.sessions=2', '--set', 'design.rounds=2', '--set', 'analysis.bootstrap.resamples=200'], dir);
  t.is(r.code, 0, r.stderr);
  const db = await Database.open(stageOutput(dir, 'sample', 'samples.duckdb'), { readOnly: true });
  const counts = await db.all(`SELECT session, count(*) AS n FROM samples WHERE phase = 'canary' GROUP BY ALL ORDER BY 1`);
  db.close();
  t.deepEqual(
    counts.map((c) => [Number(c['session']), Number(c['n'])]),
    [
      [1, CANARY_PIECES.length * CANARY_REPEATS],
      [2, CANARY_PIECES.length * CANARY_REPEATS],
    ],
  );
  const a = JSON.parse(readFileSync(stageOutput(dir, 'analyze', 'analysis.json'), 'utf8')) as AnalysisResult;
  t.false(
    a.cells.some((c) => c.cohort === 'host'),
    'no canary cell',
  );
  t.false(
    a.phases.some((p) => p.phase === 'canary'),
    'no canary phase count',
  );
  // 2 cohorts × 2 paths × 2 states × 2 rounds × 2 sessions formal launches, as without the canary.
  t.is(
    a.cells.filter((c) => c.metric === 'ready').reduce((n, c) => n + c.launches, 0),
    32,
  );
  t.deepEqual(a.canary?.pieces, [...CANARY_PIECES]);
  t.deepEqual(
    a.canary?.sessions.map((s) => s.session),
    [1, 2],
  );
  for (const m of a.canary!.run) {
    t.is(m.n, 2 * CANARY_REPEATS, m.piece);
    t.true(m.medianMs! > 0 && m.lowMs! <= m.medianMs! && m.medianMs! <= m.highMs!, m.piece);
  }
  const sessions = JSON.parse(
    readFileSync(
      join(dir, '.data', 'stages', 'sample', JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8')).stages.sample.key, 'observations', 'sessions.json'),
      'utf8',
    ),
  ) as SessionRecord[];
  t.deepEqual(
    sessions.map((s) => s.canary?.launches),
    [CANARY_PIECES.length * CANARY_REPEATS, CANARY_PIECES.length * CANARY_REPEATS],
  );
  const report = readFileSync(stageOutput(dir, 'report', 'report.md'), 'utf8');
  t.regex(report, /Host reference per session/);
  t.notRegex(readFileSync(stageOutput(dir, 'report', 'samples.csv'), 'utf8'), /,canary,/);
});

test('with design.canary false the smoke pipeline journals no canary row and analysis.json has no canary section', async (t) => {
  const dir = smokeProject();
  const r = await runCli(
    ['run', '--set', 'design.sessions=1', '--set', 'design.rounds=2', '--set', 'design.canary=false', '--set', 'analysis.bootstrap.resamples=200'],
    dir,
  );
  t.is(r.code, 0, r.stderr);
  const a = JSON.parse(readFileSync(stageOutput(dir, 'analyze', 'analysis.json'), 'utf8')) as AnalysisResult;
  t.is(a.canary, undefined);
  t.notRegex(readFileSync(stageOutput(dir, 'report', 'report.md'), 'utf8'), /Host reference per session/);
});

test('merging a session file whose session already has a canary keeps the earliest attempt’s canary only', async (t) => {
  await withJournal(async (journal, dir) => {
    await runHostCanary(options(journal, dir, 1));
    // A job that ran the same session again saw only its own file, so it journaled its canary once more (attempt 2).
    const other = await SampleJournal.open(join(dir, 'job.duckdb'));
    await runHostCanary(options(other, dir, 2));
    await other.close();
    const added = await journal.mergeFrom(join(dir, 'job.duckdb'));
    t.is(added, 0);
    const attempts = new Set((await journal.rows()).map((r) => String(r['launch_id']).split('.').at(-1)));
    t.deepEqual([...attempts], ['a1']);
  });
});

test('merging a session file that never got a phases table (a job cancelled before its first launch) merges its samples, not an error', async (t) => {
  await withJournal(async (journal, dir) => {
    const other = await SampleJournal.open(join(dir, 'cancelled.duckdb'));
    await runHostCanary(options(other, dir, 1));
    await other.close();
    const db = await Database.open(join(dir, 'cancelled.duckdb'));
    await db.exec('DROP TABLE phases');
    await db.close();
    const added = await journal.mergeFrom(join(dir, 'cancelled.duckdb'));
    t.true(added > 0, `${added} rows merged`);
  });
});

test('a session file with no tables (a Slurm job cancelled while it opened its journal) has no samples to merge; a journal has', async (t) => {
  await withJournal(async (_journal, dir) => {
    const db = await Database.open(join(dir, 'empty.duckdb'));
    db.close();
    t.false(await journalHasSamples(join(dir, 'empty.duckdb')));
    const other = await SampleJournal.open(join(dir, 'opened.duckdb'));
    await other.close();
    t.true(await journalHasSamples(join(dir, 'opened.duckdb')));
  });
});
