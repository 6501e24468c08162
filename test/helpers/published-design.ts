// The default experiment as its published run (2026-12-05) sampled it, for
// the tests that re-analyse the published samples: 5 rounds a session, looks
// 3..6, linear spending, 360 launches, and the five paths of then (the
// comparisons naming a path it did not sample left out). pipeline.yaml holds
// the next design (2 rounds, looks 5..9, rho 3, 504 launches, the estargz
// paths) until the run it samples is published; then
// published-lazy-startup-reanalysis's round count fails and this goes.
import { loadPipeline } from '../../harness/config/load-pipeline.js';
import type { PipelineConfig } from '../../harness/config/pipeline-config.js';
import { knownStageKinds } from '../../harness/engine/stage-registry.js';

export const PUBLISHED_PATHS = ['docker', 'lazy', 'oci-full', 'gvisor-lazy', 'gvisor-full'];

export function publishedDesignConfig(file = 'pipeline.yaml'): PipelineConfig {
  const committed = loadPipeline(file, { knownKinds: knownStageKinds() });
  const adaptive = (committed.design as unknown as Record<string, Record<string, unknown>>)['adaptive']!;
  const itsOwn = <T extends { a: string; b: string; factor?: string }>(list: readonly T[]): T[] =>
    list.filter((x) => x.factor || (PUBLISHED_PATHS.includes(x.a) && PUBLISHED_PATHS.includes(x.b)));
  return {
    ...committed,
    paths: Object.fromEntries(Object.entries(committed.paths).filter(([id]) => PUBLISHED_PATHS.includes(id))),
    design: {
      ...committed.design,
      rounds: 5,
      adaptive: {
        ...adaptive,
        min_sessions: 3,
        max_sessions: 6,
        spending_rho: 1,
        max_launches: 360,
        comparisons: itsOwn(adaptive['comparisons'] as { a: string; b: string }[]),
      },
    },
    analysis: { ...committed.analysis, comparisons: itsOwn(committed.analysis['comparisons'] as { a: string; b: string }[]) },
    rules: { ...committed.rules, comparisons: itsOwn(committed.rules.comparisons) },
    reportOptions: { ...committed.reportOptions, answer: committed.reportOptions.answer.filter((x) => PUBLISHED_PATHS.includes(x.b)) },
  } as PipelineConfig;
}
