// design.adaptive in the experiment model's driver (sampleExperiment): the
// sessions it adds and where it stops. The adapter is made up (its visits
// return rows with chosen values, no process runs): the behaviour under test
// is our own scheduling and decision logic, through the real journal.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import type { StageContext } from '../harness/contract/stage.js';
import type { SampleRow } from '../harness/db/sample-columns.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { sampleExperiment, type AdapterVisit, type ExperimentAdapter } from '../harness/experiment/sample-experiment.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

function context(adaptive: Record<string, unknown>): StageContext {
  const root = mkdtempSync(join(tmpdir(), 'adaptive-'));
  const [outputDir, observationsDir, workDir, dataDir] = ['out', 'obs', 'work', 'data'].map((d) => {
    mkdirSync(join(root, d));
    return join(root, d);
  }) as [string, string, string, string];
  return {
    id: 'sample',
    kind: 'made-up-sample',
    params: {},
    config: {
      design: { sessions: 1, rounds: 4, warmup_rounds: 0, seed: 'adaptive', order: 'balanced', disk_probe_mb: 0, adaptive },
      executor: { kind: 'local' },
    } as unknown as PipelineConfig,
    outputDir,
    observationsDir,
    inputs: {},
    workDir,
    dataDir,
    pipelineDir: root,
    pipelineFile: join(root, 'pipeline.yaml'),
    services: {} as StageContext['services'],
    restartServices: async () => ({}) as StageContext['services'],
    key: 'k',
    log: () => undefined,
    interactive: false,
    signal: new AbortController().signal,
  };
}

/** A made-up adapter over units `clear` (a 100 ms, b 150 ms, c 100 ms, 0.5% noise) and, when asked, `noisy` (30% noise per session and arm). */
function madeUpAdapter(units: string[], crashIn: number | null = null): ExperimentAdapter {
  const arms = ['a', 'b', 'c'];
  const base: Record<string, number> = { a: 100, b: 150, c: 100 };
  const gauss = (seed: string): number => {
    const r = seededRandom(seed);
    return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  };
  const value = (v: AdapterVisit): number => {
    const session = v.unit === 'noisy' ? 0.3 * gauss(`s|${v.unit}|${v.arm}|${v.session}`) : 0;
    return base[v.arm]! * Math.exp(session + 0.005 * gauss(`r|${v.unit}|${v.arm}|${v.session}|${v.round}`));
  };
  return {
    units,
    arms,
    conditions: ['none'],
    ourFolders: [],
    openSession: async (session) => {
      if (session === crashIn) throw new Error(`made-up crash at the start of session ${session}`);
      return {
        visit: async (v): Promise<SampleRow[]> => [
          {
            experiment: 'made-up',
            cohort: v.unit,
            path: v.arm,
            state: 'none',
            phase: v.phase,
            round: v.round,
            order_in_round: v.position,
            launch_id: `${v.unit}.${v.arm}.none.f${v.round}.S${v.session}.a${v.attempt}`,
            session: v.session,
            ok: true,
            started_at: new Date(0).toISOString(),
            completion_ms: value(v),
          },
        ],
        close: async () => undefined,
      };
    },
  };
}

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

test('with every comparison decided after min_sessions, an adaptive run adds no session (made-up adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 6 });
  await sampleExperiment(ctx, madeUpAdapter(['clear']));
  t.deepEqual([...(await sessionsByUnit(ctx)).keys()].sort(), [1, 2, 3]);
  const j = adaptiveJson(ctx);
  t.is(j.sessionsRun, 3);
  t.deepEqual(
    j.comparisons.map((c) => `${c.a}-${c.b}:${c.verdict}`),
    ['a-b:lower', 'a-c:equivalent', 'b-c:higher'],
  );
});

test('added sessions visit only the undecided unit, and the budget ends them with undecided (made-up adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 5 });
  await sampleExperiment(ctx, madeUpAdapter(['clear', 'noisy']));
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
});

test('an adaptive run that fails in an added session resumes there with the same visits (made-up adapter)', async (t) => {
  const ctx = context({ min_sessions: 3, max_sessions: 5 });
  await t.throwsAsync(sampleExperiment(ctx, madeUpAdapter(['clear', 'noisy'], 4)), { message: /session 4/ });
  await sampleExperiment({ ...ctx }, madeUpAdapter(['clear', 'noisy']));
  const sessions = await sessionsByUnit(ctx);
  t.deepEqual([...sessions.keys()].sort(), [1, 2, 3, 4, 5]);
  t.true([...sessions.get(4)!].every((cell) => cell.startsWith('noisy:')));
  t.is(adaptiveJson(ctx).sessionsRun, 5);
});
