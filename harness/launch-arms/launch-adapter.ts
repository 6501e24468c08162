// The default experiment's arm adapter (lazy-startup): units are the cohorts,
// arms the paths, conditions the design's states (cold, warm). A session
// launches against the stage's services (the experiment driver gives the
// run's first session the ones the warmup stage just used and starts them
// afresh for every later one), runs its preflight rounds when it is not the
// run's first, and one visit is one cold/warm pair of a path on a cohort,
// measured by the C helper (sampling-session.ts). Its rows carry the phase
// marks the launch printed; a pair whose teardown fails marks its launches
// failed. design.confirm is this adapter's own added session
// (confirm-session.ts); design.adaptive comes with the driver.
import type { StageContext } from '../contract/stage.js';
import type { PhaseMark } from '../launch/launch-types.js';
import type { SampleRow } from '../db/sample-row.js';
import type { ExperimentAdapter } from '../experiment/sample-experiment.js';
import { requirements, unmetRequirements } from '../artifacts/host-requirements.js';
import { CheckFailed } from '../errors.js';
import { hostName } from '../process/host-name.js';
import { dataFilesystem, deletionCarryoverRisk } from '../process/data-filesystem.js';
import { openSession } from './open-session.js';
import { confirmSessions } from './confirm-session.js';

/** Pure: whether a launch of these paths makes many files in the data folder (a {workspace} in its argv, where launches unpack or overlay an image, or a private Docker engine, whose data root is there). */
export function writesDataFolder(paths: Readonly<Record<string, unknown>>, services: Readonly<Record<string, { kind?: string }>>): boolean {
  if (Object.values(services).some((s) => s.kind === 'docker-engine')) return true;
  // a launch's {workspace} holds what it unpacks or overlays (many files); a hook's marker file in {pair_dir} is not many
  return Object.values(paths).some((p) => /\{workspace\}/.test(JSON.stringify((p as { launch?: unknown }).launch ?? null)));
}

export function launchAdapter(ctx: StageContext): ExperimentAdapter {
  const design = ctx.config.design;
  return {
    units: Object.keys(ctx.config.cohorts),
    arms: Object.keys(ctx.config.paths),
    conditions: design.states,
    // Our own detached helpers (rclone, engine shims) live under the data folder or a private engine folder.
    ourFolders: [ctx.dataDir, '/bg-engine-'],
    services: true,
    preflight: design.preflight,
    addedSessions: (c) => (c.config.design.confirm ? confirmSessions(c) : null),
    checkHost: () => {
      // A node that lacks what the real paths need fails with `pipeline doctor`'s reasons, before it starts anything.
      if (Object.keys(ctx.config.services).length === 0) return;
      const unmet = unmetRequirements(requirements());
      if (unmet) throw new CheckFailed(`${hostName()} lacks requirements of the real paths (pipeline doctor): ${unmet}`);
    },
    async openSession(session, attempt, journal, setup) {
      const dataFs = dataFilesystem(ctx.dataDir);
      // only where a launch makes files in the data folder: a path with a work folder, or a private engine's data root there
      const risk = dataFs && writesDataFolder(ctx.config.paths, ctx.config.services) ? deletionCarryoverRisk(dataFs, 'the data folder') : null;
      if (risk) ctx.log(`session ${session}: warning: ${risk}; \`pipeline doctor\` gives the remedy`);
      // The session sees only the cohorts and paths it visits (an added session's), so only their session hooks run.
      const visited = new Set(Object.values(setup.arms).flat());
      const config = {
        ...ctx.config,
        design: { ...design, sessions: Math.max(design.sessions, session) },
        cohorts: Object.fromEntries(Object.entries(ctx.config.cohorts).filter(([c]) => setup.arms[c] !== undefined)),
        paths: Object.fromEntries(Object.entries(ctx.config.paths).filter(([p]) => visited.has(p))),
      };
      const phases = new Map<string, readonly PhaseMark[]>();
      const opened = await openSession(
        { ...ctx, config },
        { session, attempt, services: setup.services },
        async (row, marks) => void phases.set(String(row['launch_id']), [...marks]),
        (ids, reason) => journal.markFailed(ids, reason),
      );
      const engine = Object.values(setup.services.byId).find((s) => s.kind === 'docker-engine');
      return {
        visit: (v) => opened.session.runPair(v.unit, v.arm, v.phase, v.round, v.position, v.previous),
        afterRound: (step) => opened.session.afterRound(step.unit, step.phase, step.round),
        phasesOf: (row: SampleRow) => {
          const id = String(row['launch_id']);
          const marks = phases.get(id) ?? [];
          phases.delete(id);
          return marks;
        },
        dockerSocket: () => engine?.socket ?? null,
        close: () => opened.close(),
      };
    },
  };
}
