// restore-sweep-sample: the restore sweep (sandbox/restore-sweep-adapter.ts)
// on the experiment model: per heap size in `with.heap_mib`, restore vs start
// in gVisor, cold and warm, in design.sessions sessions of balanced rounds.
// The analyze and report stages read its samples like any other.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { pinnedImageTar } from '../harness/contract/exchange-files.js';
import { CheckFailed } from '../harness/errors.js';
import { sampleExperiment } from '../harness/experiment/sample-experiment.js';
import { Launcher } from '../harness/launch/launcher.js';
import { restoreSweepAdapter } from '../harness/sandbox/restore-sweep-adapter.js';
import { registerAdapterFactory, withAdapter } from '../harness/experiment/adapter-registry.js';
import { sandboxRequirements, unmetOf } from '../harness/sandbox/sandbox-requirements.js';
import { adaptiveKeySlice, adaptiveReads } from '../harness/experiment/adaptive-reads.js';

/** The restore-sweep adapter with its own launcher; a Slurm job builds the same one on its node. */
const openRestoreSweepAdapter = registerAdapterFactory('restore-sweep-sample', async (ctx) => {
  const image = String(ctx.params['image']);
  const rootfsTar = pinnedImageTar(ctx.inputs, image, { file: ctx.pipelineFile, stageId: ctx.id, key: `stages.${ctx.id}.with.image` });
  const launcher = await Launcher.start();
  const design = ctx.config.design;
  const adapter = restoreSweepAdapter({
    heapsMib: ctx.params['heap_mib'] as number[],
    rootfsTar,
    launcher,
    experiment: ctx.config.experiment.name,
    settle: design.settle,
    timeoutMs: Math.round(design.timeout_s * 1000),
    signal: ctx.signal,
    log: ctx.log,
  });
  return { adapter, close: () => launcher.close() };
});

/** The host parts the sweep needs (harness/sandbox/sandbox-requirements.ts ids). */
const NEEDS = ['root', 'runsc', 'drop-caches'];

const restoreSweepSample: StageDefinition = {
  kind: 'restore-sweep-sample',
  description: 'gVisor restore of a checkpoint vs a fresh start of the same app, per heap size, cold and warm, in sessions of balanced rounds.',
  reads: ['experiment.name', 'design', ...adaptiveReads],
  // design.adaptive stops by analysis.practical and analysis.comparisons: in the key only when it is on
  keyConfig: adaptiveKeySlice,
  extraCode: ['harness/sandbox', 'harness/paths', 'harness/launch/launcher.c', 'harness/launch/canary.c'],
  async run(ctx) {
    // What the sweep needs, checked here and recorded (requirements.json), so that its REPRODUCE.md names exactly these.
    const all = sandboxRequirements();
    const needed = NEEDS.map((id) => all.find((r) => r.id === id) ?? { id, part: id, met: false, detail: `unknown requirement '${id}'` });
    writeFileSync(join(ctx.outputDir, 'requirements.json'), JSON.stringify(needed, null, 2) + '\n');
    const unmet = unmetOf(needed, NEEDS);
    if (unmet.length)
      throw new CheckFailed(
        'the restore sweep cannot run here',
        unmet.map((u) => `${u.part}: ${u.detail}`),
      );
    await withAdapter(openRestoreSweepAdapter, ctx, (adapter) => sampleExperiment(ctx, adapter));
  },
};

export default restoreSweepSample;
