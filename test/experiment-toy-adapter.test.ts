// The experiment model's driver (sampleExperiment) with the toy adapter
// (test/helpers/toy-adapter.ts: visits return rows with chosen values, no
// process runs): what the driver gives a session (its services, its
// preflight, the arms it visits), the added-sessions hook design.confirm and
// design.adaptive share, phase marks and markFailed through the journal, and
// the choice of a session executor. The behaviour under test is our own
// driver logic, through the real journal.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServices } from '../harness/contract/running-services.js';
import { noServices } from '../harness/contract/running-services.js';
import type { StageContext } from '../harness/contract/stage.js';
import { Database } from '../harness/db/duckdb.js';
import { sampleExperiment, type AddedSessions, type ExperimentAdapter } from '../harness/experiment/sample-experiment.js';
import { sessionExecutorFor } from '../harness/executors/session-executor.js';
import { toyAdapter, toyContext } from './helpers/toy-adapter.js';
import { tempDir } from './helpers/cli.js';

const fresh = (marker: string): RunningServices => ({ ...noServices, byId: { [marker]: { kind: 'toy', id: marker } as never } });

function context(design: Record<string, unknown>, adaptive: Record<string, unknown> | undefined): { ctx: StageContext; restarts: () => number } {
  const ctx = toyContext(tempDir('toy-adapter-'), adaptive as Record<string, unknown>);
  if (adaptive === undefined) delete (ctx.config.design as unknown as Record<string, unknown>)['adaptive'];
  Object.assign(ctx.config.design, design);
  let restarts = 0;
  ctx.services = fresh('stage');
  ctx.restartServices = async () => fresh(`restart-${++restarts}`);
  return { ctx, restarts: () => restarts };
}

async function rows(ctx: StageContext, sql: string): Promise<Record<string, unknown>[]> {
  const db = await Database.open(join(ctx.outputDir, 'samples.duckdb'), { readOnly: true });
  try {
    return await db.all(sql);
  } finally {
    db.close();
  }
}

test('the first session reuses the stage services and skips preflight; every later one restarts them and runs its preflight (toy adapter)', async (t) => {
  const { ctx, restarts } = context({ sessions: 3 }, undefined);
  const base = toyAdapter(['clear']);
  const seen: string[] = [];
  const adapter: ExperimentAdapter = {
    ...base,
    services: true,
    preflight: 2,
    openSession: async (session, attempt, journal, setup) => {
      seen.push(`S${session}:${Object.keys(setup.services.byId).join(',')}`);
      return base.openSession(session, attempt, journal, setup);
    },
  };
  await sampleExperiment(ctx, adapter);
  t.deepEqual(seen, ['S1:stage', 'S2:restart-1', 'S3:restart-2']);
  t.is(restarts(), 2);
  const preflight = await rows(ctx, `SELECT session, count(*) AS n FROM samples WHERE phase = 'preflight' GROUP BY 1 ORDER BY 1`);
  // Sessions 2 and 3: 2 preflight rounds x 3 arms of the one unit; session 1's preflight is the warmup stage's.
  t.deepEqual(
    preflight.map((r) => `${Number(r['session'])}:${Number(r['n'])}`),
    ['2:6', '3:6'],
  );
});

test('an adapter that uses no services never restarts them (toy adapter)', async (t) => {
  const { ctx, restarts } = context({ sessions: 2 }, undefined);
  await sampleExperiment(ctx, toyAdapter(['clear']));
  t.is(restarts(), 0);
});

test("the added-sessions hook (design.confirm's) adds one session over exactly the visits it names, each unit with its own arms, and records it (toy adapter)", async (t) => {
  const { ctx } = context({ sessions: 2 }, undefined);
  const base = toyAdapter(['clear', 'noisy']);
  const asked: number[] = [];
  const confirm: AddedSessions = {
    planned: 2,
    next: async (_journal, done) => {
      asked.push(done);
      return done === 2 ? { session: 3, visits: [{ cohort: 'noisy', paths: ['a', 'c'] }], unionArms: false, note: 'toy confirmation: session 3' } : null;
    },
    finish: async (_journal, done) => {
      t.is(done, 3);
    },
  };
  const arms: string[] = [];
  const sampled = await sampleExperiment(ctx, {
    ...base,
    addedSessions: () => confirm,
    openSession: async (session, attempt, journal, setup) => {
      arms.push(`S${session}:${JSON.stringify(setup.arms)}`);
      return base.openSession(session, attempt, journal, setup);
    },
  });
  t.deepEqual(asked, [2, 3]);
  t.is(sampled.added, 1);
  t.is(arms.at(-1), 'S3:{"noisy":["a","c"]}');
  const third = await rows(ctx, `SELECT DISTINCT cohort, path FROM samples WHERE session = 3 ORDER BY ALL`);
  t.deepEqual(
    third.map((r) => `${String(r['cohort'])}:${String(r['path'])}`),
    ['noisy:a', 'noisy:c'],
  );
});

test('design.confirm and design.adaptive both on is a user error naming design.confirm (toy adapter)', async (t) => {
  const { ctx } = context({ sessions: 2 }, { min_sessions: 2, max_sessions: 3 });
  const adapter: ExperimentAdapter = { ...toyAdapter(['clear']), addedSessions: () => ({ planned: 2, next: async () => null, finish: async () => undefined }) };
  const e = await t.throwsAsync(sampleExperiment(ctx, adapter));
  t.regex(e!.message, /design\.confirm and design\.adaptive are both on/);
});

test('phase marks and markFailed of a session reach the journal (toy adapter)', async (t) => {
  const { ctx } = context({ sessions: 1 }, undefined);
  const base = toyAdapter(['clear']);
  await sampleExperiment(ctx, {
    ...base,
    openSession: async (session, attempt, journal, setup) => {
      const opened = await base.openSession(session, attempt, journal, setup);
      return {
        ...opened,
        phasesOf: (row) => (row['path'] === 'a' ? [{ name: 'pulled', ms: 7 }] : []),
        finish: async () => journal.markFailed([`clear.b.none.f1.S${session}.a${attempt}`], 'toy teardown failed'),
      };
    },
  });
  const failed = await rows(ctx, `SELECT path, round, failure_reason FROM samples WHERE NOT ok`);
  t.deepEqual(
    failed.map((r) => `${String(r['path'])}${Number(r['round'])}: ${String(r['failure_reason'])}`),
    ['b1: toy teardown failed'],
  );
  const marks = await rows(ctx, `SELECT count(*) AS n FROM phases WHERE name = 'pulled'`);
  t.is(Number(marks[0]!['n']), 4, 'one mark per launch of arm a (4 rounds)');
});

test('the session executor is chosen in one place from executor.kind: local and slurm, anything else none', (t) => {
  t.is(sessionExecutorFor('local')?.kind, 'local');
  t.is(sessionExecutorFor('slurm')?.kind, 'slurm');
  t.is(sessionExecutorFor('kubernetes'), null);
});

test('a run records its sessions and exports the journal through the local executor (toy adapter)', async (t) => {
  const { ctx } = context({ sessions: 2 }, undefined);
  const sampled = await sampleExperiment(ctx, toyAdapter(['clear']));
  t.is(sampled.formal, 2 * 4 * 3);
  t.deepEqual(
    (JSON.parse(readFileSync(join(ctx.observationsDir, 'sessions.json'), 'utf8')) as { session: number }[]).map((r) => r.session),
    [1, 2],
  );
});
