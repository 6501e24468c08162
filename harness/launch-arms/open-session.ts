// Everything a sampling stage needs around a SamplingSession: the launch
// helper, image values, the cold checks, and their teardown.
import { join } from 'node:path';
import type { StageContext } from '../contract/stage.js';
import { Launcher } from '../launch/launcher.js';
import { harnessDir } from '../process/project-root.js';
import { SamplingSession, type ColdCheck } from './sampling-session.js';
import { sessionImages } from './session-images.js';
import type { SampleRow } from '../db/sample-row.js';
import type { PhaseMark } from '../launch/launch-types.js';
import type { RunningServices } from '../contract/running-services.js';
import { hostName } from '../process/host-name.js';

export interface OpenedSession {
  session: SamplingSession;
  close(): Promise<void>;
}

export interface SessionIdentity {
  /** The design's session, from 1. */
  session: number;
  /** The stage's start journaling it, from 1 (0 for launches that are never journaled). */
  attempt: number;
  /** The services this session launches against (started afresh for each session). */
  services: RunningServices;
}

export async function openSession(
  ctx: StageContext,
  id: SessionIdentity,
  record: (row: SampleRow, phases: readonly PhaseMark[]) => Promise<void>,
  markFailed: (ids: readonly string[], reason: string) => Promise<void>,
): Promise<OpenedSession> {
  const images = sessionImages(ctx.inputs);
  const usesPins = Object.values(ctx.config.paths).some((p) => p.cold_check === 'full-pull' || p.cold_check === 'lazy');
  // Loaded only when a path asks for it: the smoke pipeline never needs image pins.
  const { fullPullCheck, lazyReadCheck } = usesPins ? await import('../services/full-pull-check.js') : { fullPullCheck: null, lazyReadCheck: null };
  const coldCheck: ColdCheck = (pathId, cohortId, contentBytes) => {
    const check = ctx.config.paths[pathId]?.cold_check ?? '';
    if (check === '') return { ok: true, reason: null };
    const imageId = ctx.config.cohorts[cohortId]?.image;
    const image = imageId ? images[imageId] : undefined;
    if (!image) return { ok: false, reason: `cold check ${check}: no pinned image for cohort ${cohortId}` };
    return check === 'lazy' ? lazyReadCheck!(image, contentBytes) : fullPullCheck!(image, contentBytes);
  };
  const launcher = await Launcher.start();
  const session = new SamplingSession({
    config: ctx.config,
    session: id.session,
    attempt: id.attempt,
    host: hostName(),
    sessionDir: join(ctx.workDir, `session-${id.session}-a${id.attempt}`),
    values: { harnessDir: harnessDir(), dataDir: ctx.dataDir, images, services: id.services },
    launcher,
    services: id.services,
    record,
    markFailed,
    coldCheck,
    signal: ctx.signal,
  });
  let endHooks: () => Promise<void>;
  try {
    endHooks = await session.begin();
  } catch (e) {
    await launcher.close();
    throw e;
  }
  return {
    session,
    close: async () => {
      try {
        await endHooks();
      } finally {
        await launcher.close();
      }
    },
  };
}
