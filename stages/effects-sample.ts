// effects-sample: measures every runnable row of the `effects` section in
// `design.sessions` independent sessions. A row whose requirements
// (harness/sandbox/sandbox-requirements.ts) are not all met on this host is
// recorded as not runnable, with the reasons, and never measured. In each
// session every runnable row gets a fresh work folder (swept on exit, error
// and signal: sandboxes, cgroups, mounts, loop devices, netns), its image root
// unpacked from the pinned tar and its setup commands, then its warmup and
// formal rounds through the experiment model's round runner: each round
// visits before and after once in the design's order (balanced by default),
// each launch after its side's unmeasured prepare commands and the settle.
// Every launch is journaled in samples.duckdb as it ends (the one sample
// table: unit = row, arm = side, condition none); an interrupted run discards
// the incomplete round and resumes at the first incomplete (session, row).
// Outputs: samples.duckdb, rows.json (per row: measured or not runnable,
// setup facts), requirements.json; the session records are observations.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, release, totalmem } from 'node:os';
import { runUntimed } from '../harness/process/untimed-command.js';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import type { SamplingHost } from '../harness/contract/exchange-files.js';
import { UserError } from '../harness/errors.js';
import { Launcher } from '../harness/launch/launcher.js';
import { hostName } from '../harness/process/host-name.js';
import { effectsAdapter } from '../harness/sandbox/effects-adapter.js';
import { sampleExperiment } from '../harness/experiment/sample-experiment.js';
import type { EffectRow, EffectsSection } from '../harness/config/effects-section.js';
import { sandboxRequirements, unmetOf } from '../harness/sandbox/sandbox-requirements.js';
import { registerAdapterFactory, withAdapter, type OpenedAdapter } from '../harness/experiment/adapter-registry.js';
import { adaptiveKeySlice, adaptiveReads } from '../harness/experiment/adaptive-reads.js';

export interface RowRecord {
  id: string;
  state: 'measured' | 'not-runnable';
  reasons: string[];
  /** KEY=NUMBER facts the row's setup printed, in the first session that set it up. */
  facts: Record<string, number>;
}

export function effectsOf(ctx: StageContext): EffectsSection {
  const section = ctx.config.effects;
  if (!section)
    throw new UserError(
      `stage ${ctx.id} needs an effects: section`,
      { file: ctx.pipelineFile, key: 'effects' },
      'add effects.rows (see schemas/effects.schema.json)',
    );
  return section;
}

interface EffectsPlan {
  requirements: ReturnType<typeof sandboxRequirements>;
  records: Map<string, RowRecord>;
  runnable: EffectRow[];
}

/** Which rows this host can run (their requirements met), and a not-runnable record for each other row. */
function effectsPlan(ctx: StageContext, log: (line: string) => void): EffectsPlan {
  const fx = effectsOf(ctx);
  const requirements = sandboxRequirements();
  const records = new Map<string, RowRecord>();
  const runnable: EffectRow[] = [];
  for (const row of fx.rows) {
    const unmet = unmetOf(requirements, row.requires);
    if (unmet.length) {
      log(`${row.id}: not runnable here: ${unmet.map((u) => u.detail).join('; ')}`);
      records.set(row.id, { id: row.id, state: 'not-runnable', reasons: unmet.map((u) => `${u.part}: ${u.detail}`), facts: {} });
    } else runnable.push(row);
  }
  return { requirements, records, runnable };
}

const factsDirOf = (ctx: StageContext): string => join(ctx.workDir, 'facts');

async function openEffectsAdapter(ctx: StageContext, runnable: readonly EffectRow[]): Promise<OpenedAdapter> {
  mkdirSync(factsDirOf(ctx), { recursive: true });
  const launcher = await Launcher.start();
  return { adapter: effectsAdapter(ctx, runnable, launcher, factsDirOf(ctx)), close: () => launcher.close() };
}

// A Slurm job builds the adapter of the rows its node can run (it fails when the runner planned one it cannot).
registerAdapterFactory('effects-sample', (ctx) => openEffectsAdapter(ctx, effectsPlan(ctx, ctx.log).runnable));

const effectsSample: StageDefinition = {
  kind: 'effects-sample',
  description:
    'Measures each runnable before/after row of the effects section in independent sessions of balanced paired rounds; records not-runnable rows with the reason.',
  // not analysis.bootstrap: changing the bootstrap reruns analysis and report only
  reads: [
    'experiment.name',
    'design.sessions',
    'design.rounds',
    'design.warmup_rounds',
    'design.seed',
    'design.order',
    'design.settle',
    'design.disk_probe_mb',
    'design.timeout_s',
    'design.adaptive',
    ...adaptiveReads,
    'design.canary',
    'effects.rows',
    'artifacts',
  ],
  // design.adaptive stops by analysis.practical and analysis.comparisons: in the key only when it is on
  keyConfig: adaptiveKeySlice,
  extraCode: ['harness/sandbox', 'harness/paths', 'harness/launch/launcher.c', 'harness/launch/canary.c'],
  async run(ctx) {
    const fx = effectsOf(ctx);
    const { requirements, records, runnable } = effectsPlan(ctx, ctx.log);
    writeFileSync(join(ctx.outputDir, 'requirements.json'), JSON.stringify(requirements, null, 2) + '\n');
    const factsDir = factsDirOf(ctx);
    await withAdapter(
      (c) => openEffectsAdapter(c, runnable),
      ctx,
      (adapter) => sampleExperiment(ctx, adapter),
    );
    // The facts of the first session that set each row up (sorted file names: session order).
    const factFiles = readdirSync(factsDir).sort();
    for (const row of runnable) {
      const first = factFiles.find((f) => f.endsWith(`-${row.id}.json`));
      const facts = first ? (JSON.parse(readFileSync(join(factsDir, first), 'utf8')) as Record<string, number>) : {};
      records.set(row.id, { id: row.id, state: 'measured', reasons: [], facts });
    }
    writeFileSync(
      join(ctx.outputDir, 'rows.json'),
      JSON.stringify(
        fx.rows.map((r) => records.get(r.id)!),
        null,
        2,
      ) + '\n',
    );
    const runsc = await runUntimed('runsc', ['--version']).catch(() => null);
    const host: SamplingHost = {
      host: hostName(),
      cpus: cpus().length,
      memoryGiB: totalmem() / 2 ** 30,
      kernel: release(),
      runsc: runsc ? runsc.split('\n')[0]! : null,
    };
    writeFileSync(join(ctx.observationsDir, 'host.json'), JSON.stringify(host, null, 2) + '\n');
  },
};

export default effectsSample;
