// Effects: remote runs as the folders `compare` and `history` read. Each run's
// report (the stage whose outputs hold statistics.csv and differences.csv)
// and the observations of its stages are fetched (every blob hashed) into a
// temporary folder, and filed as an archived run there with the same
// run.json a local publish would write; the folder goes at exit.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { filePublishedRun, isLaunchReport, RUNS_DIR, type FrozenStage } from '../history/published-run.js';
import { onCleanup } from '../process/cleanup.js';
import { fetchBlob } from './blob-fetch.js';
import type { OciClient } from './oci-client.js';
import { openRun, readRunManifests } from './pull-run.js';
import { layerTitles } from './run-check.js';
import { RUN_ID_LENGTH } from './run-artifact.js';
import { parseRegistryRef } from './registry-ref.js';
import { clientFor } from './remote-run.js';
import { listRuns, resolveRun, type RemoteRun } from './run-index.js';

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'benchgraph-remote-'));
  onCleanup(`remote runs in ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Fetches one run's report and observations into `dir`; returns the report folder (holding runs/<archived id>/). */
async function fetchReport(client: OciClient, remote: RemoteRun, dir: string, shown: string): Promise<{ folder: string; archived: string }> {
  const run = await openRun(client, remote);
  const { stages } = await readRunManifests(client, run);
  const layers = layerTitles(run.manifest);
  const runId = run.config.runDigest.slice(0, RUN_ID_LENGTH);
  const base = join(dir, runId);
  const frozen: FrozenStage[] = [];
  let reportDir: string | null = null;
  for (const [id, { manifest }] of stages) {
    const stageDir = join(base, id);
    const report = ['statistics.csv', 'differences.csv'].every((n) => manifest.files.some((f) => f.path === n));
    const wanted = [
      ...(report ? manifest.files.map((f) => ['outputs', f.path] as const) : []),
      ...(manifest.observationFiles ?? []).map((f) => ['observations', f.path] as const),
    ];
    mkdirSync(join(stageDir, 'observations'), { recursive: true });
    for (const [under, path] of wanted) {
      const file = join(stageDir, under, path);
      mkdirSync(dirname(file), { recursive: true });
      await fetchBlob(client, layers.get(`${id}/${under}/${path}`)!.digest, `${id}/${under}/${path}`, file);
    }
    if (report) reportDir = join(stageDir, 'outputs');
    frozen.push({
      id,
      uses: manifest.kind,
      key: manifest.key,
      outputDigest: manifest.outputDigest,
      keyInputs: manifest.keyInputs,
      observationsDir: join(stageDir, 'observations'),
      manifestDigest: run.config.stages[id]!.manifest,
    });
  }
  if (!reportDir || !isLaunchReport(reportDir))
    throw new UserError(
      `run ${runId} has no report (no stage with statistics.csv and differences.csv)`,
      { key: shown },
      'compare and history read runs of a pipeline with a report stage',
    );
  const filed = filePublishedRun(reportDir, run.config.experiment, frozen, null);
  return { folder: reportDir, archived: filed.id };
}

/** `REF@RUN` as a published report folder (with its runs/ archive) for `pipeline compare`. */
export async function remoteReportFolder(text: string, caFile: string | null, key: string): Promise<string> {
  const ref = parseRegistryRef(text, key);
  if (!ref.run) throw new UserError(`'${text}' names no run`, { key }, 'write REF@RUN; `pipeline history REF` lists the runs');
  const client = clientFor(ref, caFile, 'pull');
  try {
    return (await fetchReport(client, await resolveRun(client, ref.run, key), scratch(), key)).folder;
  } finally {
    client.close();
  }
}

/**
 * Every run of `REF` (or the one of `REF@RUN`) as archived runs in one folder's runs/, for `pipeline history`, with the
 * registry reference of each archived run (`REGISTRY/REPO@RUN`): the folder is gone when the command ends, the reference is not.
 */
export async function remoteRunsFolder(
  text: string,
  caFile: string | null,
  key: string,
  log: (line: string) => void,
): Promise<{ folder: string; refs: Record<string, string> }> {
  const ref = parseRegistryRef(text, key);
  const client = clientFor(ref, caFile, 'pull');
  try {
    const runs = ref.run ? [await resolveRun(client, ref.run, key)] : await listRuns(client);
    if (!runs.length) throw new UserError(`no runs in ${ref.registry}/${ref.repository}`, { key }, 'push one first: pipeline push REF');
    const dir = scratch();
    const all = join(dir, 'series');
    mkdirSync(join(all, RUNS_DIR), { recursive: true });
    const refs: Record<string, string> = {};
    for (const remote of runs) {
      const { folder, archived } = await fetchReport(client, remote, join(dir, 'fetched'), key);
      // Two runs with the same report data are one archived run, as they are locally.
      if (!existsSync(join(all, RUNS_DIR, archived))) renameSync(join(folder, RUNS_DIR, archived), join(all, RUNS_DIR, archived));
      const shown = `${ref.registry}/${ref.repository}@${remote.runDigest.slice(0, RUN_ID_LENGTH)}`;
      refs[archived] ??= shown;
      log(`${shown} is run ${archived}`);
    }
    return { folder: all, refs };
  } finally {
    client.close();
  }
}
