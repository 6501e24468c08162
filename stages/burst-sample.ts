// burst-sample: start-up under concurrency (harness/burst/burst-adapter.ts) on
// the experiment model: per path in `with.paths` and level N in
// `with.levels`, closed-loop bursts of N launches released together, and per
// rate in `with.open_loop.rates_per_s`, open-loop trains of `count` launches
// released at that rate, in design.sessions sessions of balanced rounds. The analyze stage reads its
// samples like any other (one row per launch); burst-report adds the
// latency–concurrency curve, the knees, makespan, throughput and failures.
import type { StageDefinition } from '../harness/contract/stage.js';
import { pinnedImageTar, readExchange } from '../harness/contract/exchange-files.js';
import { sampleExperiment } from '../harness/experiment/sample-experiment.js';
import { Launcher, MAX_BURST } from '../harness/launch/launcher.js';
import { burstAdapter, burstScriptsOf, checkBurstPaths } from '../harness/burst/burst-adapter.js';
import { checkLevels, checkOpenLoop } from '../harness/burst/burst-arms.js';
import { registerAdapterFactory, withAdapter } from '../harness/experiment/adapter-registry.js';
import { adaptiveKeySlice, adaptiveReads } from '../harness/experiment/adaptive-reads.js';

/** The burst adapter with its own launcher; a Slurm job builds the same one on its node. */
const openBurstAdapter = registerAdapterFactory('burst-sample', async (ctx) => {
  const at = (k: string) => ({ file: ctx.pipelineFile, key: `stages.${ctx.id}.with.${k}` });
  const paths = checkBurstPaths(ctx.params['paths'], at('paths'));
  const levels = checkLevels(ctx.params['levels'], MAX_BURST, at('levels'));
  const openLoop = checkOpenLoop(ctx.params['open_loop'], MAX_BURST, at('open_loop'));
  const rootfsTar = pinnedImageTar(ctx.inputs, String(ctx.params['image']), { file: ctx.pipelineFile, stageId: ctx.id, key: `stages.${ctx.id}.with.image` });
  // The root's erofs image, when a prepare stage built it for the lazy path's file server.
  const erofsFile = readExchange(ctx.inputs, 'images.json')?.value.images[String(ctx.params['image'])]?.erofs_file ?? null;
  const launcher = await Launcher.start();
  const design = ctx.config.design;
  const adapter = burstAdapter({
    paths,
    levels,
    openLoop,
    rootfsTar,
    launcher,
    experiment: ctx.config.experiment.name,
    settle: design.settle,
    timeoutMs: Math.round(design.timeout_s * 1000),
    signal: ctx.signal,
    log: ctx.log,
    outputDir: ctx.outputDir,
    erofsFile: erofsFile ? String(erofsFile) : null,
  });
  return { adapter, close: () => launcher.close() };
});

const burstSample: StageDefinition = {
  kind: 'burst-sample',
  description:
    'Closed-loop bursts of N launches released together, per path and N, and open-loop trains released at fixed rates, in sessions of balanced rounds: per-launch Ready and Completion, failures recorded.',
  reads: ['experiment.name', 'design', 'services', ...adaptiveReads],
  // design.adaptive stops by analysis.practical and analysis.comparisons: in the key only when it is on
  keyConfig: adaptiveKeySlice,
  services: true,
  runsScripts: (params) => burstScriptsOf(Array.isArray(params['paths']) ? params['paths'].map(String) : ['crun', 'runsc', 'docker']), // the schema's default
  extraCode: [
    'harness/burst',
    'harness/paths/oci-run.sh',
    'harness/paths/gvisor-run.sh',
    'harness/paths/lazy-mount.sh',
    'harness/paths/cleanup-pair.sh',
    'harness/paths/oci-config-lib.sh',
    'harness/launch/launcher.c',
    'harness/launch/canary.c',
  ],
  async run(ctx) {
    await withAdapter(openBurstAdapter, ctx, (adapter) => sampleExperiment(ctx, adapter));
  },
};

export default burstSample;
