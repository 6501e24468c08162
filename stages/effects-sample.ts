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
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cpus, release, totalmem } from 'node:os';
import { runUntimed } from '../harness/process/untimed-command.js';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { findInputFile, type SamplingHost } from '../harness/contract/exchange-files.js';
import { UserError } from '../harness/errors.js';
import { expandArgv } from '../harness/design/command-template.js';
import { runHook } from '../harness/design/run-hook.js';
import { Launcher } from '../harness/launch/launcher.js';
import { hostName } from '../harness/process/host-name.js';
import { onCleanup } from '../harness/process/cleanup.js';
import { projectRoot } from '../harness/process/project-root.js';
import { EFFECT_CONDITION, EFFECT_ENV, visitEffectSide } from '../harness/sandbox/effect-arm.js';
import type { EffectRow, EffectsSection } from '../harness/config/effects-section.js';
import { printedValues } from '../harness/sandbox/printed-values.js';
import { openRowFolder, sandboxScriptsDir, type RowFolder } from '../harness/sandbox/row-folder.js';
import { sampleExperiment, type ExperimentAdapter } from '../harness/experiment/sample-experiment.js';
import { sandboxRequirements, unmetOf } from '../harness/sandbox/sandbox-requirements.js';

const run = promisify(execFile);

export interface RowRecord {
  id: string;
  state: 'measured' | 'not-runnable';
  reasons: string[];
  /** KEY=NUMBER facts the row's setup printed, in the first session that set it up. */
  facts: Record<string, number>;
}

const SIDES = ['before', 'after'] as const;

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

function imageTar(ctx: StageContext, row: EffectRow): string {
  const pins = findInputFile(ctx.inputs, 'pins.json');
  if (!pins)
    throw new UserError(
      `row ${row.id} names image ${row.image} but stage ${ctx.id} does not need the pin stage`,
      { file: ctx.pipelineFile, key: `stages.${ctx.id}.needs` },
      'add pin to needs',
    );
  const parsed = JSON.parse(readFileSync(pins.file, 'utf8')) as { images: Record<string, { tarFile: string }> };
  const pin = parsed.images[row.image!];
  if (!pin)
    throw new UserError(`unknown image '${row.image}'`, { file: ctx.pipelineFile, key: `effects.rows.${row.id}.image` }, 'declare it under artifacts.images');
  return join(pins.input.outputDir, pin.tarFile);
}

/** The arm adapter of the effect table: a session sets each row up afresh in its own folder, and a visit is one side's launch. */
function effectsAdapter(ctx: StageContext, rows: readonly EffectRow[], launcher: Launcher, factsDir: string): ExperimentAdapter {
  const design = ctx.config.design;
  const timeoutMs = Math.round(design.timeout_s * 1000);
  return {
    units: rows.map((r) => r.id),
    arms: SIDES,
    conditions: [EFFECT_CONDITION],
    ourFolders: ['/tmp/bg-fx-'],
    async openSession(session) {
      let open: { row: EffectRow; folder: RowFolder; values: Record<string, string>; stopLaunch: () => Promise<void> } | null = null;
      const closeRow = async (): Promise<void> => {
        if (!open) return;
        const o = open;
        open = null;
        await o.stopLaunch();
        await o.folder.close();
      };
      return {
        async beginUnit(unit) {
          const row = rows.find((r) => r.id === unit)!;
          const folder = openRowFolder(row.id);
          // Undos run last-registered first: on a signal the launch in flight is stopped before the row's folder is swept under it.
          const stopLaunch = onCleanup(`launch in flight of row ${row.id}`, async () => {
            if (ctx.signal.aborted) await launcher.close();
          });
          const values: Record<string, string> = {
            row_dir: folder.dir,
            sandbox: sandboxScriptsDir(),
            paths: join(projectRoot(), 'harness', 'paths'),
            image_root: join(folder.dir, 'rootfs'),
          };
          open = { row, folder, values, stopLaunch };
          ctx.log(`session ${session} ${row.id}: work folder ${folder.dir}`);
          if (row.image) {
            mkdirSync(values['image_root']!);
            await run('tar', ['-xf', imageTar(ctx, row), '-C', values['image_root']!], { signal: ctx.signal });
          }
          const facts: Record<string, number> = {};
          for (const cmd of row.setup) {
            const r = await runHook(expandArgv(cmd, { ...values, marker: 'SETUP' }), EFFECT_ENV, folder.dir, timeoutMs);
            if (!r.ok) throw new Error(`row ${row.id}: setup failed: ${r.reason}`);
            Object.assign(facts, printedValues(r.output));
          }
          writeFileSync(join(factsDir, `S${String(session).padStart(4, '0')}-${row.id}.json`), JSON.stringify(facts) + '\n');
          ctx.log(`session ${session} ${row.id}: setup done ${JSON.stringify(facts)}`);
        },
        endUnit: closeRow,
        async visit(v) {
          const o = open!;
          return [
            await visitEffectSide(launcher, {
              experiment: ctx.config.experiment.name,
              row: o.row,
              side: v.arm as (typeof SIDES)[number],
              session: v.session,
              attempt: v.attempt,
              host: hostName(),
              phase: v.phase,
              round: v.round,
              position: v.position,
              previous: v.previous,
              values: o.values,
              cwd: o.folder.dir,
              timeoutMs,
              settle: design.settle,
              signal: ctx.signal,
            }),
          ];
        },
        close: closeRow,
      };
    },
  };
}

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
    'design.timeout_s',
    'effects.rows',
    'artifacts',
  ],
  extraCode: ['harness/sandbox', 'harness/paths', 'harness/launch/launcher.c'],
  async run(ctx) {
    const fx = effectsOf(ctx);
    const requirements = sandboxRequirements();
    writeFileSync(join(ctx.outputDir, 'requirements.json'), JSON.stringify(requirements, null, 2) + '\n');
    const records = new Map<string, RowRecord>();
    const runnable: EffectRow[] = [];
    for (const row of fx.rows) {
      const unmet = unmetOf(requirements, row.requires);
      if (unmet.length) {
        ctx.log(`${row.id}: not runnable here: ${unmet.map((u) => u.detail).join('; ')}`);
        records.set(row.id, { id: row.id, state: 'not-runnable', reasons: unmet.map((u) => `${u.part}: ${u.detail}`), facts: {} });
      } else runnable.push(row);
    }
    const factsDir = join(ctx.workDir, 'facts');
    mkdirSync(factsDir, { recursive: true });
    const launcher = await Launcher.start();
    try {
      await sampleExperiment(ctx, effectsAdapter(ctx, runnable, launcher, factsDir));
    } finally {
      await launcher.close();
    }
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
