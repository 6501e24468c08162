// The data set of bench/analyze-100k.ts, also fingerprinted by
// bench/analysis-fingerprint.ts: 2 cohorts x 3 paths x 2 states x 8,333
// rounds of synthetic formal samples (one failure in 997), and its rules.
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import type { SampleRow } from '../harness/db/sample-row.js';

export function analyze100kRows(): SampleRow[] {
  return syntheticSamples({
    experiment: 'bench',
    cohorts: ['numpy', 'shell'],
    paths: { docker: 400, lazy: 180, 'oci-full': 600 },
    states: ['cold', 'warm'],
    rounds: 8333,
    seed: 'bench',
    failEvery: 997,
  });
}

/** The analysis section the bench analyses it with. */
export const analyze100kRules = {
  bootstrap: { resamples: 5000 },
  comparisons: [
    { a: 'docker', b: 'lazy' },
    { a: 'oci-full', b: 'lazy' },
  ],
};
