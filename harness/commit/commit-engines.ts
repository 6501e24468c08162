// Effects: the two private Docker engines of the commit-diff experiment, from
// the same binary. The naive engine starts while the kernel's overlay
// redirect_dir is on (its overlay2 driver then walks the lower and merged
// trees to diff); the setting is restored as soon as that engine answers,
// because the driver reads it once at start. The native engine starts with it
// off. Each engine's `docker info` is checked before it is used.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDockerEngine } from '../services/docker-engine-service.js';
import { lockRedirectDirWindow, readRedirectDir, setRedirectDir } from '../process/overlay-redirect-dir.js';
import { docker } from './docker-cli.js';
import { diffModeProblem, parseDiffMode, type DiffMethod } from './diff-mode.js';

export interface CommitEngine {
  method: DiffMethod;
  socket: string;
  dataRoot: string;
  dockerdPid: number;
  stop(): Promise<void>;
}

export class EngineModeError extends Error {}

async function startOne(method: DiffMethod, runDir: string, log: (l: string) => void): Promise<CommitEngine> {
  const dir = join(runDir, method);
  const started = await startDockerEngine(`commit-${method}`, { kind: 'docker-engine', count_bytes: false, with: {} }, undefined, dir, log);
  const socket = started.endpoint.socket!;
  const dockerdPid = Number(readFileSync(join(dir, 'dockerd.pid'), 'utf8').trim());
  return { method, socket, dataRoot: started.endpoint.values['data_root']!, dockerdPid, stop: () => started.stop() };
}

/** Throws EngineModeError when the engine's overlay2 diff is not the method's. */
export async function checkEngineMode(engine: CommitEngine): Promise<void> {
  const mode = parseDiffMode(await docker({ socket: engine.socket }, ['info', '--format', '{{json .}}']));
  const problem = diffModeProblem(engine.method, mode);
  if (problem) throw new EngineModeError(problem);
}

/** Starts the naive engine (redirect_dir on only while it starts), then the native one; both checked. */
export async function startCommitEngines(dataDir: string, runDir: string, log: (l: string) => void): Promise<CommitEngine[]> {
  const engines: CommitEngine[] = [];
  try {
    // Another benchgraph run may hold its own short window: wait for it rather than record its Y as the original.
    const unlock = await lockRedirectDirWindow();
    try {
      let naive: CommitEngine;
      if (readRedirectDir() !== 'N') {
        throw new EngineModeError(
          `overlay redirect_dir is ${readRedirectDir()} before the experiment; the native engine needs N (another program set it; restore it to N and run again)`,
        );
      }
      const restore = setRedirectDir(dataDir, 'Y');
      try {
        naive = await startOne('naive', runDir, log);
        engines.push(naive);
        // The driver decides on its first diff-mode query (a test overlay mount), so ask while the setting is on.
        await checkEngineMode(naive);
      } finally {
        await restore();
      }
      log(`commit engines: naive dockerd pid ${naive.dockerdPid} started with overlay redirect_dir=Y, restored to ${readRedirectDir()}`);
      // The native engine starts under the same lock, so no other run's window can turn it naive.
      engines.push(await startOne('native', runDir, log));
      for (const e of engines) await checkEngineMode(e); // again for naive: its answer must not change after the restore
    } finally {
      await unlock();
    }
    return engines;
  } catch (e) {
    for (const engine of engines.reverse()) await engine.stop().catch(() => undefined);
    throw e;
  }
}
