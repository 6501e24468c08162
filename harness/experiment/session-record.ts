// When and where a session ran, the host's other load over it, and the disk
// of the data folder at its start and end: started when the session starts,
// closed when it ends. Every experiment's sessions keep one (observations,
// never a downstream key).
import type { SessionRecord } from '../contract/exchange-files.js';
import { probeDisk } from '../process/disk-probe.js';
import { hostName } from '../process/host-name.js';
import { hostNoise, noisySession, readHostSnapshot } from '../process/host-noise.js';
import { ourRootPids } from '../process/our-processes.js';

/**
 * Starts the record of a session; the returned function closes it. Processes
 * whose executable or cwd lies under one of `ourFolders` (our own detached
 * helpers: rclone, engine shims) do not count as other load. With `probe`,
 * the disk of `probe.dir` is measured first and last (outside the noise window).
 */
export async function startSessionRecord(
  session: number,
  attempt: number,
  ourFolders: readonly string[],
  probe: { dir: string; mib: number } | null,
): Promise<() => Promise<SessionRecord>> {
  const measure = probe && probe.mib > 0 ? () => probeDisk(probe.dir, probe.mib * 1048576) : null;
  const diskStart = measure ? await measure() : null;
  const startedAt = new Date().toISOString();
  const atStart = readHostSnapshot();
  return async () => {
    const noise = hostNoise(atStart, readHostSnapshot(), ourRootPids(ourFolders));
    const endedAt = new Date().toISOString();
    const diskEnd = measure ? await measure() : null;
    return {
      session,
      attempt,
      host: hostName(),
      startedAt,
      endedAt,
      noise: { ...noise, ...noisySession(noise) },
      ...(diskStart && diskEnd ? { disk: { start: diskStart, end: diskEnd } } : {}),
    };
  };
}
