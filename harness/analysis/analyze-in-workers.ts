// analyzeSamples() with its bootstraps spread over threads, one per CPU by
// default: this thread and n - 1 worker threads. Each computes every n-th task
// (analysis-parts.ts); every task draws from its own seed, so the result is
// the very analyzeSamples() result whatever the number of workers
// (test/analysis-in-workers.test.ts). The effect here is the threads; the
// statistics stay the pure functions they are.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { analyzeWithParts } from './analyze-samples.js';
import type { ReplicateInput } from './rerun-results.js';
import { compactBuffers, compactValues } from './compact-values.js';
import { joinShares, partsShare, type PartsShare } from './analysis-parts.js';
import type { AnalysisRules } from '../config/analysis-rules.js';
import type { AnalysisResult, ConfirmationInput, PreparationCost } from './analysis-result.js';
import type { SampleData } from './sample-data.js';

function share(data: SampleData, rules: AnalysisRules, confirmation: ConfirmationInput | null, part: number, parts: number): Promise<PartsShare> {
  return new Promise((resolve, reject) => {
    const compact = compactValues(data);
    const worker = new Worker(new URL('./analysis-worker.js', import.meta.url), {
      workerData: { compact, rules, confirmation, part, parts },
      transferList: compactBuffers(compact),
    });
    let result: PartsShare | null = null;
    worker.once('message', (m: PartsShare) => (result = m));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`analysis worker ${part + 1} of ${parts} exited with code ${code} before its result`)),
    );
  });
}

/** `workers`: threads to use (default: the CPUs available); 1 computes everything in this thread. */
export async function analyzeSamplesInWorkers(
  data: SampleData,
  rules: AnalysisRules,
  preparation: PreparationCost[] | null,
  confirmation: ConfirmationInput | null = null,
  workers: number = availableParallelism(),
  replicates: ReplicateInput | null = null,
): Promise<AnalysisResult> {
  const parts = Math.max(1, Math.floor(workers));
  // shares 1 .. n-1 in workers, share 0 here meanwhile
  const others = Array.from({ length: parts - 1 }, (_, i) => share(data, rules, confirmation, i + 1, parts));
  let own: PartsShare;
  try {
    own = partsShare(data, rules, confirmation, 0, parts);
  } finally {
    // a failed worker is reported once, by the await below
    others.forEach((p) => p.catch(() => {}));
  }
  const shares = [own, ...(await Promise.all(others))];
  return analyzeWithParts(data, rules, preparation, confirmation, joinShares(shares), replicates);
}
