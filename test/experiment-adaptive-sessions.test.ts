// design.adaptive in the experiment model's driver (sampleExperiment): the
// sessions it adds and where it stops. The toy adapter (test/helpers/toy-adapter.ts: its visits
// return rows with chosen values, no process runs): the behaviour under test
// is our own scheduling and decision logic, through the real journal.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext } from '../harness/contract/stage.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { sampleExperiment } from '../harness/experiment/sample-experiment.js';
import { toyAdapter, toyContext } from './helpers/toy-adapter.js';
import { projectRoot, tempDir } from './helpers/cli.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

/** A toy sample stage's context; `analysis`: the analysis section design.adaptive reads its margin and comparisons from. */
const context = (adaptive: Record<string, unknown>, analysis: Record<string, unknown> = {}): StageContext =>
  toyContext(tempDir('adaptive-'), adaptive, analysis);

async function sessionsByUnit(ctx: StageContext): Promise<Map<number, Set<string>>> {
  const journal = await SampleJournal.open(join(ctx.outputDir, 'samples.duckdb'), []);
  try {
    const out = new Map<number, Set<string>>();
    for (const r of await journal.formalRows()) out.set(r.session, (out.get(r.session) ?? new Set<string>()).add(`${r.cohort}:${r.path}`));
    return out;
  } finally {
    await journal.close();
  }
}

interface AdaptiveJson {
  sessionsRun: number;
  comparisons: { cohort: string; a: string; b: string; verdict: string; decided: boolean; sessions: number }[];
}
const adaptiveJson = (ctx: StageContext): AdaptiveJson => JSON.parse(readFileSync(join(ctx.outputDir, 'adaptive.json'), 'utf8')) as AdaptiveJson;

test('with every comparison decided after min_sessions, an adaptive run adds no session (toy adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 6 });
  await sampleExperiment(ctx, toyAdapter(['clear']));
  t.deepEqual([...(await sessionsByUnit(ctx)).keys()].sort(), [1, 2, 3]);
  const j = adaptiveJson(ctx);
  t.is(j.sessionsRun, 3);
  t.deepEqual(
    j.comparisons.map((c) => `${c.a}-${c.b}:${c.verdict}`),
    ['a-b:lower', 'a-c:equivalent', 'b-c:higher'],
  );
});

test('added sessions visit only the undecided unit, and the budget ends them with undecided (toy adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 5 });
  await sampleExperiment(ctx, toyAdapter(['clear', 'noisy']));
  const sessions = await sessionsByUnit(ctx);
  t.deepEqual([...sessions.keys()].sort(), [1, 2, 3, 4, 5]);
  for (const s of [4, 5])
    t.true(
      [...sessions.get(s)!].every((cell) => cell.startsWith('noisy:')),
      `session ${s}: ${[...sessions.get(s)!].join(', ')}`,
    );
  const j = adaptiveJson(ctx);
  t.is(j.sessionsRun, 5);
  t.true(j.comparisons.filter((c) => c.cohort === 'clear').every((c) => c.decided && c.sessions === 3));
  t.true(j.comparisons.some((c) => c.cohort === 'noisy' && c.verdict === 'undecided' && c.sessions === 5));
  t.is((j as AdaptiveBudgetJson).stopped, 'max_sessions', 'the record says the budget ended it, not a decision');
});

test('an adaptive run that fails in an added session resumes there with the same visits (toy adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 5 });
  await t.throwsAsync(sampleExperiment(ctx, toyAdapter(['clear', 'noisy'], { crashIn: 4 })), { message: /session 4/ });
  await sampleExperiment({ ...ctx }, toyAdapter(['clear', 'noisy']));
  const sessions = await sessionsByUnit(ctx);
  t.deepEqual([...sessions.keys()].sort(), [1, 2, 3, 4, 5]);
  t.true([...sessions.get(4)!].every((cell) => cell.startsWith('noisy:')));
  t.is(adaptiveJson(ctx).sessionsRun, 5);
});

test('an adaptive run killed with SIGKILL in an added session resumes there: its incomplete round is discarded and runs again (toy adapter)', async (t) => {
  const root = tempDir('adaptive-kill-');
  const stallFile = join(root, 'stalled');
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot, 'dist', 'test', 'helpers', 'adaptive-child.js'), root, stallFile], {
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const deadline = Date.now() + 60_000;
  while (!existsSync(stallFile) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  t.true(existsSync(stallFile), 'the child reached session 4');
  process.kill(child.pid!, 'SIGKILL');
  t.is(await exited, 'SIGKILL');
  const ctx = toyContext(root, { min_sessions: 3, max_sessions: 5 });
  const killed = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'), []);
  try {
    const rows = (await killed.formalRows()).filter((r) => r.session === 4);
    t.is(rows.length, 5, 'the killed run journaled round 1 and two visits of round 2 of session 4');
  } finally {
    await killed.close();
  }
  await sampleExperiment(ctx, toyAdapter(['clear', 'noisy']));
  const journal = await SampleJournal.open(join(ctx.outputDir, 'samples.duckdb'), []);
  try {
    const rows = (await journal.formalRows()).filter((r) => r.session === 4);
    t.true(rows.every((r) => r.cohort === 'noisy'));
    const ids = rows.map((r) => `${r.round}|${r.path}`);
    t.is(new Set(ids).size, ids.length, 'no visit journaled twice');
    t.is(rows.length, 4 * 3, 'session 4: 4 rounds x 3 arms of the noisy unit');
  } finally {
    await journal.close();
  }
  t.is(adaptiveJson(ctx).sessionsRun, 5);
});

interface AdaptiveBudgetJson extends AdaptiveJson {
  stopped: string;
  launches: number;
}

test('design.adaptive decides only the pairs analysis.comparisons names, and added sessions visit only their arms (toy adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 4 }, { comparisons: [{ a: 'a', b: 'b' }] });
  await sampleExperiment(ctx, toyAdapter(['clear', 'noisy']));
  const j = adaptiveJson(ctx);
  t.deepEqual([...new Set(j.comparisons.map((c) => `${c.a}-${c.b}`))], ['a-b']);
  const added = (await sessionsByUnit(ctx)).get(4);
  if (added) t.deepEqual([...added].sort(), ['noisy:a', 'noisy:b'], 'session 4 visits the undecided pair only');
  else
    t.true(
      j.comparisons.every((c) => c.decided),
      'no session added only when every named pair was decided',
    );
});

test('an absolute margin (analysis.practical.min_ms) wider than the noise makes the noisy unit decided at min_sessions (toy adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 5 }, { practical: { min_ratio_change: 0.05, min_ms: 1000 } });
  await sampleExperiment(ctx, toyAdapter(['clear', 'noisy']));
  t.deepEqual([...(await sessionsByUnit(ctx)).keys()].sort(), [1, 2, 3]);
  t.true(adaptiveJson(ctx).comparisons.every((c) => c.decided));
});

test('max_launches stops before the session that would pass it, and the record says so (toy adapter)', async (t) => {
  // 3 sessions x 2 units x 4 rounds x 3 arms = 72 formal launches; one added session over the noisy unit is 12 more
  const ctx = context({ min_sessions: 3, max_sessions: 8, max_launches: 90 });
  await sampleExperiment(ctx, toyAdapter(['clear', 'noisy']));
  const j = adaptiveJson(ctx) as AdaptiveBudgetJson;
  t.is(j.sessionsRun, 4);
  t.is(j.launches, 84);
  t.is(j.stopped, 'max_launches');
  t.true(j.comparisons.some((c) => c.verdict === 'undecided'));
});
