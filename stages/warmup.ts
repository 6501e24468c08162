// The opening of a sampling session: preflight launches of every path in
// every cohort, cold then warm, that bring services and page caches to a
// steady state and prove each path works before any formal round. Volatile:
// it runs again right before every sampling session. Its launches never
// enter analysis; a path that fails preflight stops the run here, before
// hours of sampling. What run() needs is imported inside it, so a command
// that only plans (a no-op rerun, status) does not load the session code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { CheckFailed } from '../harness/errors.js';

const warmup: StageDefinition = {
  kind: 'warmup',
  description: 'Preflight launches of every path and cohort, right before each sampling session.',
  // Not design.rounds or warmup_rounds: changing how many formal rounds run does not change preflight.
  reads: [
    'experiment',
    'design.preflight',
    'design.seed',
    'design.order',
    'design.settle',
    'design.states',
    'design.timeout_s',
    'design.tail_bytes',
    'cohorts',
    'paths',
    'services',
  ],
  extraCode: ['harness/paths', 'harness/launch/launcher.c'],
  volatile: true,
  services: true,
  async run(ctx) {
    const [{ openSession }, { runRounds }, { sessionSteps }] = await Promise.all([
      import('../harness/launch-arms/open-session.js'),
      import('../harness/experiment/run-rounds.js'),
      import('../harness/experiment/session-steps.js'),
    ]);
    const rows: SampleRow[] = [];
    const opened = await openSession(
      ctx,
      { session: 1, attempt: 0, services: ctx.services },
      async (r) => void rows.push(r),
      async (ids, reason) => {
        for (const r of rows) if (ids.includes(String(r['launch_id']))) Object.assign(r, { ok: false, failure_reason: reason });
      },
    );
    try {
      const design = ctx.config.design;
      await runRounds({
        seed: design.seed,
        session: 1,
        order: design.order,
        arms: opened.session.pathIds,
        steps: sessionSteps(
          { session: 1, cohorts: [] },
          { preflight: design.preflight, warmupRounds: 0, formalRounds: 0, units: Object.keys(ctx.config.cohorts), seed: design.seed },
        ),
        signal: ctx.signal,
        visit: async (v) => void (await opened.session.runPair(v.unit, v.arm, v.phase, v.round, v.position, v.previous)),
        afterRound: (step) => ctx.log(`preflight ${step.unit} ${step.round}/${step.of}: ${rows.filter((r) => !r['ok']).length} failures so far`),
      });
    } finally {
      await opened.close();
    }
    const failures = rows.filter((r) => !r['ok']);
    writeFileSync(join(ctx.outputDir, 'warmup.json'), JSON.stringify({ launches: rows.length, failures: failures.length, rows }, null, 2) + '\n');
    if (failures.length) {
      throw new CheckFailed(
        `preflight failed for ${failures.length} of ${rows.length} launches; fix the path before sampling`,
        failures.slice(0, 6).map((r) => `${r['cohort']}/${r['path']}/${r['state']}: ${r['failure_reason']}`),
      );
    }
  },
};

export default warmup;
