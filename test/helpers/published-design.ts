// The default experiment as its published run sampled it, for the tests that
// re-analyse the published samples. The run published on 2026-12-07 sampled
// with pipeline.yaml's own design (2 rounds, looks 5..9, rho 3, 504 launches,
// seven paths), so this is that config; a future republish under another
// design than pipeline.yaml's would pin that design here until it is published
// (published-lazy-startup-reanalysis's round count says when).
import { loadPipeline } from '../../harness/config/load-pipeline.js';
import type { PipelineConfig } from '../../harness/config/pipeline-config.js';
import { knownStageKinds } from '../../harness/engine/stage-registry.js';

export function publishedDesignConfig(file = 'pipeline.yaml'): PipelineConfig {
  return loadPipeline(file, { knownKinds: knownStageKinds() });
}

/**
 * The design of the default runs archived before 2026-12-07 (5 rounds a session, looks 3..6, linear spending, 360
 * launches, the five paths of then), for the tests that re-analyse those archived samples.
 */
export const FIVE_PATHS = ['docker', 'lazy', 'oci-full', 'gvisor-lazy', 'gvisor-full'];

export function fivePathDesignConfig(file = 'pipeline.yaml'): PipelineConfig {
  const committed = loadPipeline(file, { knownKinds: knownStageKinds() });
  const adaptive = (committed.design as unknown as Record<string, Record<string, unknown>>)['adaptive']!;
  const itsOwn = <T extends { a: string; b: string; factor?: string }>(list: readonly T[]): T[] =>
    list.filter((x) => x.factor || (FIVE_PATHS.includes(x.a) && FIVE_PATHS.includes(x.b)));
  return {
    ...committed,
    paths: Object.fromEntries(Object.entries(committed.paths).filter(([id]) => FIVE_PATHS.includes(id))),
    design: {
      ...committed.design,
      rounds: 5,
      adaptive: {
        ...adaptive,
        min_sessions: 3,
        max_sessions: 6,
        spending_rho: 1,
        max_launches: 360,
      },
    },
    analysis: { ...committed.analysis, comparisons: itsOwn(committed.analysis['comparisons'] as { a: string; b: string }[]) },
    rules: { ...committed.rules, comparisons: itsOwn(committed.rules.comparisons) },
    reportOptions: { ...committed.reportOptions, answer: committed.reportOptions.answer.filter((x) => FIVE_PATHS.includes(x.b)) },
  } as PipelineConfig;
}
