// The experiment model's driver (harness/experiment/sample-experiment.ts) runs
// the host canary in every session, before the session's visits, and a
// resumed session does not repeat it. The adapter and the stage context are
// made up (the test is about our driver); the canary runs for real.
import test from 'ava';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import type { StageContext } from '../harness/contract/stage.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { sampleExperiment, type ExperimentAdapter } from '../harness/experiment/sample-experiment.js';
import { visitColumns } from '../harness/experiment/launch-columns.js';
import { CANARY_PIECES, CANARY_REPEATS } from '../harness/experiment/canary-plan.js';
import { testDesign } from './helpers/test-design.js';
import { tempDir } from './helpers/cli.js';

function madeUpContext(root: string): StageContext {
  const dirs = ['out', 'obs', 'work', 'data'].map((d) => join(root, d));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  const config = {
    experiment: { name: 'canary-model' },
    design: { ...testDesign(2, 'canary'), sessions: 2, warmup_rounds: 0, canary: true },
    executor: { kind: 'local' },
  } as unknown as PipelineConfig;
  return {
    id: 'sample',
    kind: 'sample',
    params: {},
    config,
    outputDir: dirs[0]!,
    observationsDir: dirs[1]!,
    workDir: dirs[2]!,
    dataDir: dirs[3]!,
    inputs: {},
    pipelineDir: root,
    pipelineFile: join(root, 'pipeline.yaml'),
    services: { byId: {} } as unknown as StageContext['services'],
    restartServices: async () => ({ byId: {} }) as unknown as StageContext['services'],
    key: 'k',
    log: () => {},
    interactive: false,
    signal: new AbortController().signal,
  };
}

/** A made-up adapter: one unit, two arms, one condition; with failAt, the visit of that session and round throws (a crash). */
function madeUpAdapter(failAt: { session: number; round: number } | null): ExperimentAdapter {
  return {
    units: ['u'],
    arms: ['a', 'b'],
    conditions: ['none'],
    ourFolders: [],
    openSession: async () => ({
      visit: async (v) => {
        if (failAt && v.session === failAt.session && v.round === failAt.round) throw new Error('made-up crash');
        return [{ ...visitColumns('canary-model', v, 'none'), ok: true, started_at: new Date().toISOString(), value: 1 }];
      },
      close: async () => {},
    }),
  };
}

test('the experiment model runs the canary once per session, before its visits, and a resumed session does not repeat it (made-up adapter)', async (t) => {
  const root = tempDir('bg-canary-model-');
  try {
    const ctx = madeUpContext(root);
    await t.throwsAsync(sampleExperiment(ctx, madeUpAdapter({ session: 2, round: 2 })), { message: 'made-up crash' });
    await sampleExperiment(ctx, madeUpAdapter(null));
    const rows = await SampleJournal.readRows(join(ctx.outputDir, 'samples.duckdb'));
    const perSession = CANARY_PIECES.length * CANARY_REPEATS;
    for (const session of [1, 2]) {
      const canary = rows.filter((r) => r['session'] === session && r['phase'] === 'canary');
      const formal = rows.filter((r) => r['session'] === session && r['phase'] === 'formal');
      t.is(canary.length, perSession, `session ${session}`);
      t.is(formal.length, 2 * 2, `session ${session}`);
      const lastCanary = canary
        .map((r) => String(r['started_at']))
        .sort()
        .at(-1)!;
      const firstFormal = formal.map((r) => String(r['started_at'])).sort()[0]!;
      t.true(lastCanary <= firstFormal, `session ${session}: canary before its visits`);
    }
    const records = JSON.parse(readFileSync(join(ctx.observationsDir, 'sessions.json'), 'utf8')) as SessionRecord[];
    t.deepEqual(
      records.map((r) => [r.session, r.attempt, r.canary?.launches, r.canary?.skipped !== null]),
      [
        [1, 1, perSession, false],
        [2, 2, 0, true],
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
