// The two-level bootstrap's documented draw order, replayed for an
// independent reference (NumPy) to resample the same rounds: per resample, K
// session draws, each followed by that session's own round draws.
import { randomInt, seededRandom } from '../../harness/stats/seeded-random.js';
import type { PairedSession } from '../../harness/stats/two-level-bootstrap.js';

/** Per resample, the drawn (session index, round index) pairs. */
export function twoLevelDraws(sessions: readonly PairedSession[], resamples: number, seed: string): [number, number][][] {
  const random = seededRandom(seed);
  const k = sessions.length;
  return Array.from({ length: resamples }, () => {
    const picked: [number, number][] = [];
    for (let d = 0; d < k; d++) {
      const s = randomInt(random, k);
      const n = sessions[s]!.rounds.length;
      for (let j = 0; j < n; j++) picked.push([s, randomInt(random, n)]);
    }
    return picked;
  });
}
