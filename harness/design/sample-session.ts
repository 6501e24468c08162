// One sampling session: its preflight (when asked), then per cohort its
// warmup rounds and its remaining formal rounds, every launch journaled as it
// ends. The sample stage runs it in process; a Slurm job runs it on its node.
import type { StageContext } from '../contract/stage.js';
import type { RunningServices } from '../contract/running-services.js';
import type { SampleJournal } from '../db/sample-journal.js';
import { readHostFingerprint } from '../process/host-fingerprint.js'; // issue 22: host fingerprint per session
import { hostName } from '../process/host-name.js';
import { hostNoise, noisySession, readHostSnapshot } from '../process/host-noise.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { ourRootPids } from '../process/our-processes.js';
import { openSession } from './open-session.js';
import { formatProgress } from './progress-line.js';
import type { SessionWork } from './session-plan.js';

export type { SessionRecord };

/** One session: its preflight (when asked), then per cohort its warmup rounds and remaining formal rounds. */
export async function sampleSession(
  ctx: StageContext,
  journal: SampleJournal,
  id: { session: number; attempt: number; services: RunningServices },
  work: SessionWork,
  preflight: boolean,
): Promise<SessionRecord> {
  const design = ctx.config.design;
  const startedAt = new Date().toISOString();
  const hostAtStart = readHostSnapshot();
  const perRound = Object.keys(ctx.config.paths).length * design.states.length;
  const preflightLaunches = preflight ? Object.keys(ctx.config.cohorts).length * design.preflight * perRound : 0;
  const total = preflightLaunches + work.cohorts.reduce((n, w) => n + (design.warmup_rounds + w.rounds.length) * perRound, 0);
  let done = 0;
  let failures = 0;
  const t0 = Date.now();
  const at = { cohort: '', phase: '', round: 0, rounds: 0 };
  const line = (): string =>
    `session ${id.session}/${design.sessions} ` + formatProgress({ ...at, launchesDone: done, launchesTotal: total, failures, elapsedMs: Date.now() - t0 });
  const opened = await openSession(
    ctx,
    id,
    async (row, phases) => {
      await journal.append(row, phases);
      done++;
      if (!row['ok']) failures++;
      ctx.progress?.(line());
    },
    (ids, reason) => journal.markFailed(ids, reason),
  );
  const roundDone = (): void => ctx.log(line()); // one plain line per round
  try {
    if (preflight) {
      for (const cohort of Object.keys(ctx.config.cohorts)) {
        for (let p = 1; p <= design.preflight; p++) {
          Object.assign(at, { cohort, phase: 'preflight', round: p, rounds: design.preflight });
          await opened.session.runRound(cohort, 'preflight', p);
          roundDone();
        }
      }
    }
    for (const w of work.cohorts) {
      for (let r = 1; r <= design.warmup_rounds; r++) {
        Object.assign(at, { cohort: w.cohort, phase: 'warmup', round: r, rounds: design.warmup_rounds });
        await opened.session.runRound(w.cohort, 'warmup', r);
        roundDone();
      }
      for (const r of w.rounds) {
        Object.assign(at, { cohort: w.cohort, phase: 'formal', round: r, rounds: design.rounds });
        await opened.session.runRound(w.cohort, 'formal', r);
        roundDone();
      }
    }
  } finally {
    await opened.close();
  }
  // Our own detached helpers (rclone, engine shims) live under the data folder or a private engine folder.
  const noise = hostNoise(hostAtStart, readHostSnapshot(), ourRootPids([ctx.dataDir, '/bg-engine-']));
  // --- issue 22 (history): the host fingerprint, read after the last launch so it never runs between launches.
  const engine = Object.values(id.services.byId).find((s) => s.kind === 'docker-engine');
  const fingerprint = readHostFingerprint({ dataDir: ctx.dataDir, dockerSocket: engine?.socket ?? null, stealShare: noise.stealShare });
  // --- end of the issue 22 addition
  return {
    session: id.session,
    attempt: id.attempt,
    host: hostName(),
    startedAt,
    endedAt: new Date().toISOString(),
    noise: { ...noise, ...noisySession(noise) },
    fingerprint, // issue 22
  };
}
