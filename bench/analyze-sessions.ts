// Benchmark (not a test): the two-level analysis of 100,000 synthetic formal
// samples in 3 sessions (2 cohorts x 3 paths x 2 states x 3 sessions x 2,778
// rounds, two metrics) with 5000 resamples per difference, 16 differences.
// Prints the wall time of pairing plus the two-level bootstraps (the analysis
// stage's fast twin, in threads, one per CPU).
// Run: npx tsc -p . && node dist/bench/analyze-sessions.js
import { seededRandom } from '../harness/stats/seeded-random.js';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { pairSessions, twoLevelBootstrap, type SessionRow, type TwoLevelResult } from '../harness/stats/two-level-bootstrap.js';

const cohorts = ['numpy', 'shell'];
const paths: Record<string, number> = { docker: 400, lazy: 180, 'oci-full': 600 };
const states = ['cold', 'warm'];
const sessions = 3;
const rounds = 2778;
const resamples = 5000;
const comparisons = [
  { a: 'docker', b: 'lazy' },
  { a: 'oci-full', b: 'lazy' },
];

const random = seededRandom('bench-sessions');
const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
// rows per (cohort, state, metric)
const rows = new Map<string, SessionRow[]>();
let samples = 0;
for (const cohort of cohorts) {
  for (const state of states) {
    const ready: SessionRow[] = [];
    const completion: SessionRow[] = [];
    for (let session = 1; session <= sessions; session++) {
      const shift = Math.exp(0.2 * normal()); // a session-level factor per session
      for (let round = 1; round <= rounds; round++) {
        for (const [path, medianMs] of Object.entries(paths)) {
          const readyMs = medianMs * (state === 'warm' ? 0.4 : 1) * shift * Math.exp(0.1 * normal());
          ready.push({ session, round, path, value: readyMs });
          completion.push({ session, round, path, value: readyMs + 5 + random() });
          samples++;
        }
      }
    }
    rows.set(`${cohort}|${state}|ready`, ready);
    rows.set(`${cohort}|${state}|completion`, completion);
  }
}

// The 16 bootstraps in threads, one per CPU (this one included), each taking every n-th:
// each draws from its own seed, so the numbers are those of one thread.
const tasks = [...rows].flatMap(([key, list]) => comparisons.map(({ a, b }) => ({ key, list, a, b })));
const run = (part: number, parts: number): TwoLevelResult[] =>
  tasks.flatMap((t, i) =>
    i % parts === part ? [twoLevelBootstrap(pairSessions(t.list, t.a, t.b), { resamples, confidence: 0.95, seed: `${t.key}|${t.a}|${t.b}` })] : [],
  );

if (!isMainThread) {
  const { part, parts } = workerData as { part: number; parts: number };
  parentPort!.once('message', () => parentPort!.postMessage(run(part, parts)));
  parentPort!.postMessage('ready');
} else {
  const parts = availableParallelism();
  const workers = Array.from({ length: parts - 1 }, (_, i) => new Worker(fileURLToPath(import.meta.url), { workerData: { part: i + 1, parts } }));
  // each worker builds its rows before the clock starts
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const t0 = performance.now();
  const results = workers.map((w) => new Promise<TwoLevelResult[]>((resolve) => w.once('message', resolve)));
  workers.forEach((w) => w.postMessage('go'));
  const differences = run(0, parts).length + (await Promise.all(results)).reduce((n, r) => n + r.length, 0);
  const t1 = performance.now();
  await Promise.all(workers.map((w) => w.terminate()));
  console.log(`samples: ${samples} in ${sessions} sessions, differences: ${differences} x ${resamples} resamples`);
  console.log(`two-level analysis wall time: ${((t1 - t0) / 1000).toFixed(2)} s on ${parts} threads (target < 3 s)`);
}
