// Made-up sample data with phase marks, for the span analysis and report
// tests (our own logic): one cohort `shell`, cold launches of docker (a pull
// mark), oci-full (copy, then unpack) and lazy (no marks), sessions slightly
// shifted from one another.
import type { MarkRow, SampleData, ValueRow } from '../../harness/analysis/sample-data.js';
import { seededRandom } from '../../harness/stats/seeded-random.js';

/** Made-up marks per path: docker pulls (~4000 ms, mark pull-done) then starts (~30 ms); oci-full copies (~250, copy-done), unpacks (~4400, unpack-done), starts (~30); lazy prints none (~180). */
const plan: Record<string, { name: string; ms: number }[]> = {
  docker: [{ name: 'pull-done', ms: 4000 }],
  'oci-full': [
    { name: 'copy-done', ms: 250 },
    { name: 'unpack-done', ms: 4400 },
  ],
  lazy: [],
};
const toReadyMs: Record<string, number> = { docker: 30, 'oci-full': 30, lazy: 180 };

export function madeUpPhaseSamples(sessions: number, rounds: number): SampleData {
  const random = seededRandom('made-up-spans');
  const values: ValueRow[] = [];
  const marks: MarkRow[] = [];
  let id = 0;
  for (let session = 1; session <= sessions; session++) {
    const shift = 1 + 0.1 * (session - 2);
    for (let round = 1; round <= rounds; round++) {
      Object.keys(plan).forEach((path, position) => {
        const launchId = `L${++id}`;
        let at = 0;
        plan[path]!.forEach((m, i) => {
          at += m.ms * shift * (0.9 + 0.2 * random());
          marks.push({ launchId, cohort: 'shell', path, state: 'cold', seq: i + 1, name: m.name, atMs: at });
        });
        const readyMs = at + toReadyMs[path]! * (0.9 + 0.2 * random());
        values.push({
          launchId,
          cohort: 'shell',
          path,
          state: 'cold',
          session,
          round,
          position,
          previousPath: null,
          readyMs,
          completionMs: readyMs + 5,
          contentBytes: null,
          responseBytes: null,
        });
      });
    }
  }
  const cells = Object.keys(plan).map((path) => ({ cohort: 'shell', path, state: 'cold', launches: sessions * rounds, failures: 0 }));
  return { phases: [], cells, positions: { shell: 3 }, failures: [], values, marks };
}
