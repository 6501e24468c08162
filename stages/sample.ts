// Formal sampling in `design.sessions` independent sessions. Each session
// starts every service afresh (the first uses the services the engine started
// for this stage, right after its warmup), runs its own preflight (sessions
// after the first; the warmup stage is the first's), then per cohort
// `design.warmup_rounds` excluded rounds and its formal rounds, in an order
// seeded from (seed, session). Every launch is written to DuckDB as it ends;
// after a crash or signal the next run discards the incomplete round and
// resumes the first incomplete session there, so completed rounds are never
// repeated or counted twice. The sessions are the experiment model's
// (harness/experiment/sample-experiment.ts, the one driver of every
// experiment, local or on Slurm) with this experiment's arm adapter
// (harness/launch-arms/launch-adapter.ts). With design.confirm on, once the
// planned sessions are complete, one more session runs for exactly the
// differences they leave undecided (launch-arms/confirm-session.ts), and
// confirm.json records the decision; with design.adaptive on, sessions are
// added one at a time until every comparison is decided (adaptive.json). What
// run() needs is imported inside it, so a command that only plans (a no-op
// rerun, status) does not load the sampling code; the adapter is registered
// for session jobs when this module loads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import type { SamplingSummary } from '../harness/contract/exchange-files.js';
import { confirmReads } from '../harness/launch-arms/confirm-reads.js';
import { registerAdapterFactory, type OpenedAdapter } from '../harness/experiment/adapter-registry.js';
import { adaptiveKeySlice, adaptiveReads } from '../harness/experiment/adaptive-reads.js';

/** The default experiment's arm adapter, loaded only when a session runs. */
const openLaunchAdapter = registerAdapterFactory('sample', async (ctx: StageContext): Promise<OpenedAdapter> => {
  const { launchAdapter } = await import('../harness/launch-arms/launch-adapter.js');
  return { adapter: launchAdapter(ctx), close: async () => undefined };
});

/** The slice with analysis.comparisons cut to those of paths: a unit or condition comparison changes no launch. */
function withoutFactorComparisons(slice: Record<string, unknown>): Record<string, unknown> {
  const listed = slice['analysis.comparisons'];
  if (!Array.isArray(listed)) return slice;
  const ofPaths = listed.filter((c) => {
    const factor = (c as { factor?: unknown } | null)?.factor;
    return factor === undefined || factor === 'arm';
  });
  return ofPaths.length === listed.length ? slice : { ...slice, 'analysis.comparisons': ofPaths };
}

const sample: StageDefinition = {
  kind: 'sample',
  description: 'Independent sessions of formal rounds of cold/warm pairs in seeded random path order, journaled in DuckDB, resumable.',
  reads: ['experiment', 'design', 'cohorts', 'paths', 'services', ...new Set([...confirmReads, ...adaptiveReads])],
  // With design.confirm and design.adaptive off (the default) the key is what it was before either existed: the analysis
  // keys only matter to them (confirmation judges by comparisons, metrics and bootstrap; adaptive stops by the margin and comparisons).
  keyConfig: (slice) => {
    const design = slice['design'] as Record<string, unknown> | null;
    if (design?.['confirm'] === true) {
      const { ['analysis.practical']: _margin, ...rest } = slice;
      return withoutFactorComparisons(rest); // confirmation judges the comparisons of paths only
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(slice)) if (!(confirmReads as readonly string[]).includes(k)) out[k] = v;
    if (design) out['design'] = Object.fromEntries(Object.entries(design).filter(([k]) => k !== 'confirm'));
    return adaptiveKeySlice({ ...out, 'analysis.comparisons': slice['analysis.comparisons'] });
  },
  extraCode: ['harness/paths', 'harness/launch/launcher.c', 'harness/launch/canary.c'],
  services: true,
  async run(ctx) {
    const design = ctx.config.design;
    const [{ sampleExperiment }, { withAdapter }] = await Promise.all([
      import('../harness/experiment/sample-experiment.js'),
      import('../harness/experiment/adapter-registry.js'),
    ]);
    const sampled = await withAdapter(openLaunchAdapter, ctx, (adapter) => sampleExperiment(ctx, adapter));
    const summary: SamplingSummary = {
      seed: design.seed,
      sessions: design.sessions,
      rounds: design.rounds,
      warmupRounds: design.warmup_rounds,
      preflight: design.preflight,
      states: design.states,
      paths: Object.keys(ctx.config.paths),
      cohorts: Object.keys(ctx.config.cohorts),
      attempts: sampled.attempt,
      formalLaunches: sampled.formal,
      formalFailures: sampled.failed,
      hosts: sampled.hosts,
    };
    writeFileSync(join(ctx.outputDir, 'session.json'), JSON.stringify(summary, null, 2) + '\n');
  },
};

export default sample;
