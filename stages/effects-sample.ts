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
import { findInputFile, type SamplingHost, type SessionRecord } from '../harness/contract/exchange-files.js';
import { UserError } from '../harness/errors.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { expandArgv } from '../harness/design/command-template.js';
import { runHook } from '../harness/design/run-hook.js';
import { formatProgress } from '../harness/experiment/progress-line.js';
import { runRounds } from '../harness/experiment/run-rounds.js';
import { remainingWork } from '../harness/experiment/session-plan.js';
import { startSessionRecord } from '../harness/experiment/session-record.js';
import { sessionSteps } from '../harness/experiment/session-steps.js';
import { Launcher } from '../harness/launch/launcher.js';
import { hostName } from '../harness/process/host-name.js';
import { onCleanup } from '../harness/process/cleanup.js';
import { projectRoot } from '../harness/process/project-root.js';
import { EFFECT_CONDITION, EFFECT_ENV, visitEffectSide } from '../harness/sandbox/effect-arm.js';
import type { EffectRow, EffectsSection } from '../harness/config/effects-section.js';
import { printedValues } from '../harness/sandbox/printed-values.js';
import { openRowFolder, sandboxScriptsDir } from '../harness/sandbox/row-folder.js';
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

/** One session of one row: a fresh work folder, its setup, then its warmup and remaining formal rounds. */
async function sampleRow(
  ctx: StageContext,
  row: EffectRow,
  at: { session: number; attempt: number; rounds: number[] },
  launcher: Launcher,
  journal: SampleJournal,
  progress: (phase: string, round: number, of: number, ok: boolean) => string,
): Promise<Record<string, number>> {
  const design = ctx.config.design;
  const folder = openRowFolder(row.id);
  // Undos run last-registered first: on a signal the launch in flight is stopped before the row's folder is swept under it.
  const stopLaunch = onCleanup(`launch in flight of row ${row.id}`, async () => {
    if (ctx.signal.aborted) await launcher.close();
  });
  const timeoutMs = Math.round(design.timeout_s * 1000);
  ctx.log(`session ${at.session} ${row.id}: work folder ${folder.dir}`);
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
      const r = await runHook(expandArgv(cmd, { ...values, marker: 'SETUP' }), EFFECT_ENV, folder.dir, timeoutMs);
      if (!r.ok) throw new Error(`row ${row.id}: setup failed: ${r.reason}`);
      Object.assign(facts, printedValues(r.output));
    }
    ctx.log(`session ${at.session} ${row.id}: setup done ${JSON.stringify(facts)}`);
    let line = '';
    const steps = sessionSteps(
      { session: at.session, cohorts: [{ cohort: row.id, rounds: at.rounds, partialRounds: [], completeRounds: 0 }] },
      { preflight: 0, warmupRounds: design.warmup_rounds, formalRounds: design.rounds, units: [row.id] },
    );
    await runRounds({
      seed: design.seed,
      session: at.session,
      order: design.order,
      arms: SIDES,
      steps,
      signal: ctx.signal,
      visit: async (v) => {
        const sample = await visitEffectSide(launcher, {
          experiment: ctx.config.experiment.name,
          row,
          side: v.arm as (typeof SIDES)[number],
          session: at.session,
          attempt: at.attempt,
          host: hostName(),
          phase: v.phase,
          round: v.round,
          position: v.position,
          previous: v.previous,
          values,
          cwd: folder.dir,
          timeoutMs,
          settle: design.settle,
          signal: ctx.signal,
        });
        // A launch cut short by a signal is not a sample: its round is incomplete and runs again.
        if (ctx.signal.aborted) throw ctx.signal.reason as Error;
        await journal.append(sample);
        line = progress(v.phase, v.round, steps.find((s) => s.phase === v.phase)!.of, sample['ok'] === true);
      },
      afterRound: () => ctx.log(line), // one plain line per round
    });
    return facts;
  } finally {
    await stopLaunch();
    await folder.close();
  }
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
    const design = ctx.config.design;
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
    const journal = await SampleJournal.open(join(ctx.workDir, 'samples.duckdb'));
    const factsDir = join(ctx.workDir, 'facts');
    const recordsDir = join(ctx.workDir, 'session-records');
    mkdirSync(factsDir, { recursive: true });
    mkdirSync(recordsDir, { recursive: true });
    const launcher = await Launcher.start();
    try {
      const attempt = (await journal.lastAttempt()) + 1;
      const work = remainingWork(await journal.formalRows(), {
        sessions: design.sessions,
        rounds: design.rounds,
        cohorts: runnable.map((r) => r.id),
        paths: SIDES,
        states: [EFFECT_CONDITION],
      });
      const perRound = SIDES.length;
      const total = work.reduce((n, w) => n + w.cohorts.reduce((m, c) => m + (design.warmup_rounds + c.rounds.length) * perRound, 0), 0);
      const t0 = Date.now();
      let done = 0;
      let failures = 0;
      for (const w of work) {
        const closeRecord = startSessionRecord(w.session, attempt, ['/tmp/bg-fx-']);
        for (const c of w.cohorts) {
          if (c.partialRounds.length) {
            ctx.log(`session ${w.session} ${c.cohort}: discarding incomplete round(s) ${c.partialRounds.join(', ')} of an interrupted run`);
            await journal.discardRounds(w.session, c.cohort, c.partialRounds);
          }
          if (c.completeRounds) ctx.log(`session ${w.session} ${c.cohort}: ${c.completeRounds} formal rounds already complete, ${c.rounds.length} to go`);
          const row = runnable.find((r) => r.id === c.cohort)!;
          const facts = await sampleRow(ctx, row, { session: w.session, attempt, rounds: c.rounds }, launcher, journal, (phase, round, of, ok) => {
            done++;
            if (!ok) failures++;
            const line =
              `session ${w.session}/${design.sessions} ` +
              formatProgress({ cohort: row.id, phase, round, rounds: of, launchesDone: done, launchesTotal: total, failures, elapsedMs: Date.now() - t0 });
            ctx.progress?.(line);
            return line;
          });
          writeFileSync(join(factsDir, `S${String(w.session).padStart(4, '0')}-${row.id}.json`), JSON.stringify(facts) + '\n');
        }
        writeFileSync(join(recordsDir, `S${w.session}.a${attempt}.json`), JSON.stringify(closeRecord()) + '\n');
      }
      await journal.exportTo(join(ctx.outputDir, 'samples.duckdb'));
      const counts = await journal.counts();
      ctx.log(`${counts.formal} formal launches, ${counts.failed} failures, in ${design.sessions} session(s)`);
    } finally {
      await journal.close();
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
    const sessions = readdirSync(recordsDir)
      .sort()
      .map((f) => JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) as SessionRecord)
      .sort((x, y) => x.session - y.session || x.attempt - y.attempt);
    writeFileSync(join(ctx.observationsDir, 'sessions.json'), JSON.stringify(sessions, null, 2) + '\n');
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
