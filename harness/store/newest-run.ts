// Effects: the newest run of an experiment in a repository, by the time its
// run config records (the end of its last stage).
import { UserError } from '../errors.js';
import type { OciClient } from './oci-client.js';
import { fetchManifest, fetchRunConfig, listRuns, type RemoteRun } from './run-index.js';

export async function newestRun(client: OciClient, experiment: string): Promise<RemoteRun> {
  const runs = await listRuns(client, experiment);
  if (!runs.length)
    throw new UserError(`no run of experiment ${experiment} in ${client.registry}/${client.repository}`, { key: 'pull' }, 'push one first: pipeline push REF');
  let best: { run: RemoteRun; time: string } | null = null;
  for (const run of runs) {
    const config = await fetchRunConfig(client, (await fetchManifest(client, run.tag)).manifest);
    if (!best || config.time > best.time) best = { run, time: config.time };
  }
  return best!.run;
}
