// Pure: what a service dying in the middle of a sampling session means.
//
// Policy (docs/RELIABILITY.md): a service process that ends before the
// session stops it (e.g. `kill -9` of the registry, nginx or the private
// dockerd) is never silent and no launch is dropped:
//  1. every launch of a path that uses the dead service, from the moment it
//     is dead, is recorded as a failure whose reason names the service, its
//     pid and how it ended; a launch that would start after the death is not
//     started at all (it is recorded failed at once);
//  2. launches of paths that do not use it go on normally to the end of the
//     round, so the round is complete in the journal;
//  3. then the session stops with a failed check (exit 1) naming the service
//     and the round. Services are not restarted: a restarted service is a
//     different session (cold caches, new ports), which is what the next
//     `pipeline run` starts; it resumes at the next round.
// A path uses a service when it lists it in `services:` or its launch or
// hook templates refer to `{services.ID.…}` (the docker path reaches the
// private engine only through `{services.engine.socket}`).
import type { PathSection } from '../config/pipeline-config.js';
import type { ServiceDeath } from '../contract/running-services.js';
import type { SampleRow } from '../db/sample-row.js';
import { CheckFailed } from '../errors.js';

const SERVICE_REF = /\{services\.([^.}]+)[.}]/g;

export function servicesUsedBy(path: PathSection): string[] {
  const used = new Set(path.services);
  const templates = [path.launch, ...Object.values(path.hooks).flat()];
  for (const argv of templates) for (const arg of argv) for (const m of String(arg).matchAll(SERVICE_REF)) used.add(m[1]!);
  for (const v of Object.values(path.env)) for (const m of v.matchAll(SERVICE_REF)) used.add(m[1]!);
  return [...used].sort();
}

/** The deaths among the services a path uses. */
export function deathsAffecting(used: readonly string[], deaths: readonly ServiceDeath[]): ServiceDeath[] {
  return deaths.filter((d) => used.includes(d.id));
}

export function deathReason(deaths: readonly ServiceDeath[]): string {
  return deaths.map((d) => `service ${d.id} (${d.kind}, pid ${d.pid}) died: ${d.how}`).join('; ');
}

/** A launch row, failed when a service it uses died; the launch's own reason, if any, is kept after it. */
export function withServiceDeaths(row: SampleRow, affecting: readonly ServiceDeath[]): SampleRow {
  if (!affecting.length) return row;
  const own = row['ok'] ? null : (row['failure_reason'] as string | null);
  return { ...row, ok: false, failure_reason: own ? `${deathReason(affecting)}; ${own}` : deathReason(affecting) };
}

/** After a round: the failed check that stops the session, or null when every service is alive. */
export function stopAfterRound(deaths: readonly ServiceDeath[], cohort: string, phase: string, round: number): CheckFailed | null {
  if (!deaths.length) return null;
  return new CheckFailed(
    `${deathReason(deaths)} during ${phase} round ${round} of cohort ${cohort}; the launches that use it are recorded as failures naming it and the session stopped at the end of the round (run again: a new session with fresh services resumes at the next round)`,
  );
}
