// When and where a session ran, and the host's other load over it: started
// when the session starts, closed when it ends. Every experiment's sessions
// keep one (observations, never a downstream key).
import type { SessionRecord } from '../contract/exchange-files.js';
import { hostName } from '../process/host-name.js';
import { hostNoise, noisySession, readHostSnapshot } from '../process/host-noise.js';
import { ourRootPids } from '../process/our-processes.js';

/**
 * Starts the record of a session; the returned function closes it. Processes
 * whose executable or cwd lies under one of `ourFolders` (our own detached
 * helpers: rclone, engine shims) do not count as other load.
 */
export function startSessionRecord(session: number, attempt: number, ourFolders: readonly string[]): () => SessionRecord {
  const startedAt = new Date().toISOString();
  const atStart = readHostSnapshot();
  return () => {
    const noise = hostNoise(atStart, readHostSnapshot(), ourRootPids(ourFolders));
    return { session, attempt, host: hostName(), startedAt, endedAt: new Date().toISOString(), noise: { ...noise, ...noisySession(noise) } };
  };
}
