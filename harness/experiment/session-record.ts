// When and where a session ran, the host's other load over it, its settings
// (the fingerprint), and the disk of the data folder at its start and end: started when the session starts,
// closed when it ends. Every experiment's sessions keep one (observations,
// never a downstream key).
import type { SessionRecord } from '../contract/exchange-files.js';
import { probeDisk } from '../process/disk-probe.js';
import { readHostFingerprint } from '../process/host-fingerprint.js';
import { hostName } from '../process/host-name.js';
import { hostNoise, noisySession, readHostSnapshot } from '../process/host-noise.js';
import { ourRootPids } from '../process/our-processes.js';

/**
 * Starts the record of a session; the returned function closes it. Processes
 * whose executable or cwd lies under one of `ourFolders` (our own detached
 * helpers: rclone, engine shims) do not count as other load. With `probe`,
 * the disk of `data.dir` is measured first and last (outside the noise window). The
 * returned function takes the session's Docker socket, if it has an engine.
 */
export async function startSessionRecord(
  session: number,
  attempt: number,
  ourFolders: readonly string[],
  data: { dir: string; probeMib: number },
): Promise<(dockerSocket?: string | null) => Promise<SessionRecord>> {
  const measure = data.probeMib > 0 ? () => probeDisk(data.dir, data.probeMib * 1048576) : null;
  const diskStart = measure ? await measure() : null;
  const startedAt = new Date().toISOString();
  const atStart = readHostSnapshot();
  return async (dockerSocket = null) => {
    const noise = hostNoise(atStart, readHostSnapshot(), ourRootPids(ourFolders));
    const endedAt = new Date().toISOString();
    // The host's settings, read after the last launch so the reads never run between launches.
    const fingerprint = readHostFingerprint({ dataDir: data.dir, dockerSocket, stealShare: noise.stealShare });
    const diskEnd = measure ? await measure() : null;
    return {
      session,
      attempt,
      host: hostName(),
      startedAt,
      endedAt,
      noise: { ...noise, ...noisySession(noise) },
      fingerprint,
      ...(diskStart && diskEnd ? { disk: { start: diskStart, end: diskEnd } } : {}),
    };
  };
}
