// effects-sample: measures every runnable row of the `effects` section.
// A row whose requirements (harness/sandbox/sandbox-requirements.ts) are not
// all met on this host is recorded as not runnable, with the reasons, and
// never measured. A runnable row gets a fresh work folder (swept on exit,
// error and signal: sandboxes, cgroups, mounts, loop devices, netns), its image
// root unpacked from the pinned tar, its setup commands, then warmup and
// formal rounds: each round runs before and after once, in a seeded random
// order, each launch measured by the C launch helper after its side's
// unmeasured prepare commands. Outputs: samples.csv (one line per formal
// launch; the same rows in samples.duckdb, table effect_samples), rows.json (per row: measured or not runnable, setup facts),
// requirements.json (every requirement, met or not). A run interrupted after
// some rows resumes with the next row: each completed row is kept in the
// stage's work folder (keyed by the stage key) until the stage succeeds.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { findInputFile } from '../harness/contract/exchange-files.js';
import { UserError } from '../harness/errors.js';
import { expandArgv } from '../harness/design/command-template.js';
import { armOrder } from '../harness/experiment/arm-order.js';
import { runHook } from '../harness/design/run-hook.js';
import { Launcher } from '../harness/launch/launcher.js';
import { makeMarker } from '../harness/launch/marker.js';
import { projectRoot } from '../harness/process/project-root.js';
import type { EffectRow, EffectSideName, EffectsSection } from '../harness/sandbox/effect-row.js';
import { EFFECT_SAMPLE_HEADER, formatEffectSample, type EffectSample } from '../harness/sandbox/effect-samples-csv.js';
import { writeEffectSamplesDb } from '../harness/sandbox/effect-samples-db.js';
import { printedValues } from '../harness/sandbox/printed-values.js';
import { openRowFolder, sandboxScriptsDir } from '../harness/sandbox/row-folder.js';
import { sandboxRequirements, unmetOf } from '../harness/sandbox/sandbox-requirements.js';

const run = promisify(execFile);

export interface RowRecord {
  id: string;
  state: 'measured' | 'not-runnable';
  reasons: string[];
  facts: Record<string, number>;
}

const ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8' };

function effectsOf(ctx: StageContext): EffectsSection {
  const section = (ctx.config as unknown as { effects?: EffectsSection }).effects;
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
      { key: `stages.${ctx.id}.needs` },
      'add pin to needs',
    );
  const parsed = JSON.parse(readFileSync(pins.file, 'utf8')) as { images: Record<string, { tarFile: string }> };
  const pin = parsed.images[row.image!];
  if (!pin) throw new UserError(`unknown image '${row.image}'`, { key: `effects.rows.${row.id}.image` }, 'declare it under artifacts.images');
  return join(pins.input.outputDir, pin.tarFile);
}

function valueOf(row: EffectRow, r: { readyMs: number | null; completionMs: number | null; stdoutTail: string }): number | null {
  if (row.metric === 'ready') return r.readyMs;
  if (row.metric === 'completion') return r.completionMs;
  const key = row.metric.slice('printed:'.length);
  return printedValues(r.stdoutTail)[key] ?? null;
}

async function measureRow(ctx: StageContext, fx: EffectsSection, row: EffectRow, launcher: Launcher, out: EffectSample[]): Promise<RowRecord> {
  const folder = openRowFolder(row.id);
  const timeoutMs = Math.round(fx.timeout_s * 1000);
  ctx.log(`${row.id}: work folder ${folder.dir}`);
  try {
    const values: Record<string, string> = {
      row_dir: folder.dir,
      sandbox: sandboxScriptsDir(),
      paths: join(projectRoot(), 'harness', 'paths'),
      image_root: join(folder.dir, 'rootfs'),
    };
    if (row.image) {
      mkdirSync(values['image_root']!);
      await run('tar', ['-xf', imageTar(ctx, row), '-C', values['image_root']!], { signal: ctx.signal });
    }
    const facts: Record<string, number> = {};
    for (const cmd of row.setup) {
      const r = await runHook(expandArgv(cmd, { ...values, marker: 'SETUP' }), ENV, folder.dir, timeoutMs);
      if (!r.ok) throw new Error(`row ${row.id}: setup failed: ${r.reason}`);
      Object.assign(facts, printedValues(r.output));
    }
    ctx.log(`${row.id}: setup done ${JSON.stringify(facts)}`);
    const total = fx.warmup_rounds + fx.rounds;
    for (let i = 0; i < total; i++) {
      const formal = i >= fx.warmup_rounds;
      const round = formal ? i - fx.warmup_rounds + 1 : -(fx.warmup_rounds - i);
      const order = armOrder('random', { seed: fx.seed, session: 1, unit: row.id, phase: formal ? 'formal' : 'warmup', round }, [
        'before',
        'after',
      ]) as EffectSideName[];
      for (const [position, side] of order.entries()) {
        if (ctx.signal.aborted) throw ctx.signal.reason as Error;
        const launchId = `${row.id}.${formal ? 'f' : 'w'}${Math.abs(round)}.${side}`;
        const marker = makeMarker(launchId);
        let failure = '';
        for (const cmd of row[side].prepare) {
          const r = await runHook(expandArgv(cmd, { ...values, marker }), ENV, folder.dir, timeoutMs);
          if (!r.ok) failure = `prepare failed: ${r.reason}`;
        }
        let value: number | null = null;
        let state: EffectSample['state'] = 'failed';
        if (!failure) {
          const r = await launcher.launch({
            launchId,
            argv: expandArgv(row[side].launch, { ...values, marker }),
            env: ENV,
            cwd: folder.dir,
            marker,
            timeoutMs,
            tailBytes: 4096,
          });
          if (r.state !== 'ok') [state, failure] = [r.state, r.failureReason ?? r.state];
          else if ((value = valueOf(row, r)) === null) failure = `no value for ${row.metric} in the launch's output`;
          else state = 'ok';
        }
        ctx.progress?.(`effects: ${row.id} ${formal ? 'round' : 'warmup'} ${Math.abs(round)} ${side}: ${state === 'ok' ? value : failure}`);
        if (formal) out.push({ row: row.id, round, side, position, state, value: state === 'ok' ? value : null, failure });
      }
    }
    return { id: row.id, state: 'measured', reasons: [], facts };
  } finally {
    await folder.close();
  }
}

const effectsSample: StageDefinition = {
  kind: 'effects-sample',
  description: 'Measures each runnable before/after row of the effects section over seeded paired rounds; records not-runnable rows with the reason.',
  // not effects.bootstrap: changing the bootstrap reruns analysis and report only
  reads: ['effects.seed', 'effects.rounds', 'effects.warmup_rounds', 'effects.timeout_s', 'effects.rows', 'artifacts'],
  extraCode: ['harness/sandbox', 'harness/paths', 'harness/launch/launcher.c'],
  async run(ctx) {
    const fx = effectsOf(ctx);
    const requirements = sandboxRequirements();
    writeFileSync(join(ctx.outputDir, 'requirements.json'), JSON.stringify(requirements, null, 2) + '\n');
    const samples: EffectSample[] = [];
    const records: RowRecord[] = [];
    const launcher = await Launcher.start();
    try {
      for (const row of fx.rows) {
        const unmet = unmetOf(requirements, row.requires);
        if (unmet.length) {
          ctx.log(`${row.id}: not runnable here: ${unmet.map((u) => u.detail).join('; ')}`);
          records.push({ id: row.id, state: 'not-runnable', reasons: unmet.map((u) => `${u.part}: ${u.detail}`), facts: {} });
          continue;
        }
        // A row measured completely before an interruption is not measured again (resume by row).
        const done = join(ctx.workDir, 'rows', `${row.id}.json`);
        if (existsSync(done)) {
          const saved = JSON.parse(readFileSync(done, 'utf8')) as { record: RowRecord; samples: EffectSample[] };
          ctx.log(`${row.id}: measured before an interruption; reusing its ${saved.samples.length} samples`);
          records.push(saved.record);
          samples.push(...saved.samples);
          continue;
        }
        const mine: EffectSample[] = [];
        const record = await measureRow(ctx, fx, row, launcher, mine);
        mkdirSync(dirname(done), { recursive: true });
        writeFileSync(`${done}.tmp`, JSON.stringify({ record, samples: mine }));
        renameSync(`${done}.tmp`, done);
        records.push(record);
        samples.push(...mine);
      }
    } finally {
      await launcher.close();
    }
    writeFileSync(join(ctx.outputDir, 'samples.csv'), [EFFECT_SAMPLE_HEADER, ...samples.map(formatEffectSample)].join('\n') + '\n');
    await writeEffectSamplesDb(join(ctx.outputDir, 'samples.duckdb'), samples);
    writeFileSync(join(ctx.outputDir, 'rows.json'), JSON.stringify(records, null, 2) + '\n');
  },
};

export default effectsSample;
