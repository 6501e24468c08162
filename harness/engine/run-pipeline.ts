// Runs the stage graph by its plan (plan-run.ts): execute the first stage the
// plan says must run, freeze it, plan again, until nothing is left to run.
// Planning again after each stage gives early cutoff: a stage that reran with
// identical products leaves every stage after it reused. Volatile stages
// (warmup) run right before the stage that needs them; services are started
// around the stages that need them.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { PipelineConfig } from '../config/pipeline-config.js';
import type { StageInput } from '../contract/stage.js';
import { folderDigest } from '../digest/merkle.js';
import { onCleanup, shutdownSignal } from '../process/cleanup.js';
import { startupDone } from '../process/startup-checkpoint.cjs';
import { removeScratch } from '../process/safe-remove.js';
import { noServices } from '../contract/running-services.js';
import { ancestors } from '../config/stage-graph.js';
import { hostFacts } from './host-facts.js';
import { lockWouldChange, readLock, writeLock, type LockEntry } from './lock-file.js';
import { declaredConfig } from './declared-config.js';
import { checkoutStateAsync, type CheckoutState } from '../process/checkout-state.js';
import { UserError } from '../errors.js';
// Installs the session executors (local, slurm) the experiment driver chooses from.
import '../executors/session-executor.js';
import { planRun, type PlanContext, type PlannedStage } from './plan-run.js';
import { withoutStagePrefix } from './stage-log-line.js';
import { startServiceSession, type ServiceSession } from '../services/service-session.js';
import { projectStageRegistry, type StageRegistry } from './stage-registry.js';
import { Store } from './store.js';
import { planContext } from './plan-context.js';
import { CheckFailed } from '../errors.js';
import { alreadyPublished, publishStage } from './publish-stage.js';
import { projectDirOf } from '../config/project-dir.js';

export { planContext };

export type StageAction = 'ran' | 'reused' | 'skipped' | 'would-run' | 'would-reuse';

export interface StageOutcome {
  id: string;
  uses: string;
  key: string | null;
  action: StageAction;
  outputDigest: string | null;
  seconds: number;
  /** Why it runs (or would), in words. */
  reasons?: string[];
}

export interface RunOptions {
  dataDir: string;
  only?: readonly string[];
  force?: readonly string[];
  dryRun?: boolean;
  log: (line: string) => void;
  interactive: boolean;
  /** Where stages come from; the project's stages/ by default. */
  registry?: StageRegistry;
  /** Label of the run the report archive files (`pipeline history --by label`); never part of a key. */
  label?: string | null;
  /** Publish even from a git work tree with uncommitted changes (the report then says so). */
  allowDirty?: boolean;
  /** The --set values the config was loaded with: the lock records them, so `status` can say what the last run used. */
  sets?: readonly string[];
  /**
   * Takes the data folder's lock (data-lock.ts), settling once it is held and rejecting when it is
   * refused. Called once, and only by a run that will write: a stage to run, a report to publish or
   * archive, a lock file to change. A run with nothing to write (a no-op rerun, --dry-run) reads the
   * data folder as `status` does and takes no lock; anything it read is frozen, and a run that would
   * change it holds the lock, so what such a run reports was true when it read it.
   */
  lock?: () => Promise<unknown>;
}

/**
 * A report published into a git work tree must be traceable to one commit:
 * with a stage that publishes, a work tree holding the publish folder with
 * uncommitted tracked changes (run outputs aside) refuses the run before
 * anything runs, unless --allow-dirty. `checkout` is git's answer, asked while
 * the plan was made; null when it was not asked (--allow-dirty, or no stage
 * of the pipeline publishes).
 */
async function refuseDirtyPublish(
  config: PipelineConfig,
  ctx: PlanContext,
  plan: readonly PlannedStage[],
  checkout: Promise<CheckoutState | null> | null,
): Promise<void> {
  if (!checkout) return;
  const publishing = plan.find((p) => p.action !== 'skip' && ctx.definitions.get(p.uses)?.publishDir);
  if (!publishing) return;
  const state = await checkout;
  if (!state?.dirty) return;
  throw new UserError(
    `the git work tree ${state.root} has uncommitted changes (${state.changed.length} file${state.changed.length === 1 ? '' : 's'}: ${state.changed.slice(0, 3).join(', ')}${state.changed.length > 3 ? ', …' : ''}), so the report stage ${publishing.id} would publish a report no commit describes`,
    { file: config.file },
    'commit the changes, or pass --allow-dirty (the report then says the commit had uncommitted changes)',
  );
}

/** A stage about to be planned over a corrupted frozen output is refused, unless --force rebuilds it. */
function refuseCorrupt(plan: readonly PlannedStage[], corrupt: ReadonlyMap<string, string>, force: ReadonlySet<string>): void {
  for (const p of plan) {
    const problem = p.key ? corrupt.get(`${p.uses}/${p.key}`) : undefined;
    if (problem && !force.has(p.id)) {
      throw new CheckFailed(`stage '${p.id}': frozen output ${problem}; refusing to reuse it (rebuild it with --force ${p.id})`);
    }
  }
}

export async function runPipeline(config: PipelineConfig, options: RunOptions): Promise<StageOutcome[]> {
  const store = new Store(options.dataDir);
  const registry = options.registry ?? projectStageRegistry(options.dataDir);
  try {
    const ctx = await planContext(config, store, registry);
    // git's answer for the dirty-publish check runs beside the lock and the plan (a stage that publishes: unless --allow-dirty)
    const publishes = [...ctx.definitions.values()].some((d) => d.publishDir);
    const checkout = !options.dryRun && !options.allowDirty && publishes ? checkoutStateAsync(projectDirOf(config.file)) : null;
    const lock = readLock(config.file, options.dataDir);
    const force = new Set(options.force ?? []);
    const forcedByUser = new Set(options.force ?? []);
    const plan = (): PlannedStage[] => {
      ctx.corrupt.clear();
      const p = planRun(ctx, { only: options.only, force: [...force], lock });
      refuseCorrupt(p, ctx.corrupt, forcedByUser);
      return p;
    };

    if (options.dryRun) {
      return plan().map((p) => ({
        id: p.id,
        uses: p.uses,
        key: p.key,
        action: p.action === 'run' ? 'would-run' : p.action === 'reuse' ? 'would-reuse' : 'skipped',
        outputDigest: p.manifest?.outputDigest ?? null,
        seconds: 0,
        reasons: p.reasons,
      }));
    }

    let current = plan();
    await refuseDirtyPublish(config, ctx, current, checkout);
    const unchanged = nothingToWrite(config, store, ctx, current, options.sets ?? []);
    if (unchanged) return reportUnchanged(current, unchanged, options.log);
    if (options.lock) {
      await options.lock();
      current = plan(); // what another run froze before we held the lock is reused, not run again
    }
    const executor = new StageExecutor(config, store, ctx, options);
    try {
      for (;;) {
        const next = current.find((p) => p.action === 'run' && !p.volatile && p.key !== null);
        if (!next) break;
        if (executor.ran.has(next.id)) throw new Error(`bug: stage ${next.id} would run twice in one run`);
        startupDone(); // the CLI's code cache keeps what start-up compiled, not the stages' code
        const decl = config.stages.find((s) => s.id === next.id)!;
        for (const n of decl.needs) {
          const need = current.find((p) => p.id === n)!;
          if (need.volatile && !executor.ran.has(n)) await executor.execute(need, current);
        }
        await executor.execute(next, current);
        force.delete(next.id);
        for (const n of decl.needs) force.delete(n);
        current = plan();
        // Services stay up only while the next stage to run needs them too.
        const after = current.find((p) => p.action === 'run' && !p.volatile && p.key !== null);
        if (!after || !ctx.definitions.get(after.uses)!.services) await executor.stopServices();
      }
    } finally {
      await executor.stopServices();
    }

    for (const p of current) if (p.manifest && executor.ran.has(p.id) === false) executor.publish(p, current);
    const outcomes = outcomesOf(current, executor.ran, options.log);
    writeLock(
      config.file,
      lockEntries(outcomes),
      config.stages.map((s) => s.id),
      { dataDir: options.dataDir, sets: options.sets ?? [] },
    );
    return outcomes;
  } finally {
    registry.close();
  }
}

/** What became of each planned stage, logging the reused and the skipped ones. */
function outcomesOf(plan: readonly PlannedStage[], ran: ReadonlyMap<string, StageOutcome>, log: (line: string) => void): StageOutcome[] {
  return plan.map((p): StageOutcome => {
    const outcome = ran.get(p.id);
    if (outcome) return outcome;
    if (p.manifest) {
      log(`· ${p.id} reused ${p.manifest.outputDigest.slice(0, 12)}`);
      return { id: p.id, uses: p.uses, key: p.key, action: 'reused', outputDigest: p.manifest.outputDigest, seconds: 0 };
    }
    if (!p.volatile) log(`- ${p.id} skipped (${p.reasons.join('; ')})`);
    return { id: p.id, uses: p.uses, key: p.key, action: 'skipped', outputDigest: null, seconds: 0, reasons: p.reasons };
  });
}

function lockEntries(outcomes: readonly StageOutcome[]): Record<string, LockEntry> {
  const entries: Record<string, LockEntry> = {};
  for (const o of outcomes) if (o.key && o.outputDigest) entries[o.id] = { uses: o.uses, key: o.key, outputDigest: o.outputDigest };
  return entries;
}

/** A run with nothing to write: what publishing each stage would log (its report already as it is), then the outcomes. */
function reportUnchanged(plan: readonly PlannedStage[], published: ReadonlyMap<string, string[]>, log: (line: string) => void): StageOutcome[] {
  for (const p of plan) for (const line of published.get(p.id) ?? []) log(line);
  return outcomesOf(plan, new Map(), log);
}

/**
 * When the run has nothing to write (every stage reused, every report published
 * and archived as it is, the lock file as it would be): the lines publishing
 * would log, by stage id. Null when anything would be written.
 */
function nothingToWrite(
  config: PipelineConfig,
  store: Store,
  ctx: PlanContext,
  plan: readonly PlannedStage[],
  sets: readonly string[],
): Map<string, string[]> | null {
  if (plan.some((p) => p.action === 'run' && !p.volatile && p.key !== null)) return null;
  const published = new Map<string, string[]>();
  for (const p of plan) {
    if (!p.manifest) continue;
    const lines = alreadyPublished(config, store, ctx.definitions.get(p.uses)!, p);
    if (!lines) return null;
    published.set(p.id, lines);
  }
  const ids = config.stages.map((s) => s.id);
  return lockWouldChange(config.file, lockEntries(outcomesOf(plan, new Map(), () => undefined)), ids, { dataDir: store.dataDir, sets }) ? null : published;
}

/** Executes planned stages one at a time: temp folder, run, digests, freeze, publish. */
class StageExecutor {
  readonly ran = new Map<string, StageOutcome>();
  private session: ServiceSession | null = null;

  constructor(
    private readonly config: PipelineConfig,
    private readonly store: Store,
    private readonly ctx: PlanContext,
    private readonly options: RunOptions,
  ) {}

  async execute(p: PlannedStage, plan: readonly PlannedStage[]): Promise<void> {
    const { config, store, options } = this;
    const decl = config.stages.find((s) => s.id === p.id)!;
    const def = this.ctx.definitions.get(p.uses)!;
    const key = p.key!;
    if (def.services) await this.startServices(plan);
    const temp = store.makeTemp(def.kind, key);
    const dropTemp = onCleanup(`temporary outputs of ${p.id}`, () => rmSync(temp, { recursive: true, force: true }));
    const workDir = store.workDir(def.kind, key);
    mkdirSync(workDir, { recursive: true });
    const startedAt = new Date();
    const t0 = process.hrtime.bigint();
    options.log(`▶ ${p.id} (${def.kind}) running${p.reasons.length ? ': ' + p.reasons.join('; ') : ''}`);
    appendFileSync(join(options.dataDir, 'executions.log'), `${startedAt.toISOString()}\t${p.id}\t${def.kind}\t${key}\n`);
    try {
      await def.run({
        id: p.id,
        kind: def.kind,
        params: decl.with,
        config: declaredConfig(config, def.kind, def.reads),
        outputDir: join(temp, 'outputs'),
        observationsDir: join(temp, 'observations'),
        inputs: this.inputsFor(p.id, plan),
        workDir,
        dataDir: options.dataDir,
        pipelineDir: dirname(config.file),
        pipelineFile: config.file,
        services: this.session ? this.session.services : noServices,
        restartServices: async () => {
          if (!def.services) throw new Error(`bug: stage kind ${def.kind} has no services to restart`);
          await this.stopServices();
          await this.startServices(plan);
          return this.session!.services;
        },
        key,
        log: (line) => {
          if (options.interactive) process.stderr.write('\r\x1b[K');
          options.log(`  ${p.id}: ${withoutStagePrefix(line, p.id, def.kind)}`);
        },
        interactive: options.interactive,
        progress: (line) => {
          if (options.interactive) process.stderr.write(`\r\x1b[K  ${p.id}: ${line}`);
        },
        signal: shutdownSignal,
      });
    } catch (e) {
      await dropTemp();
      throw e;
    }
    const products = await folderDigest(join(temp, 'outputs'));
    const observations = await folderDigest(join(temp, 'observations'));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    store.freeze(temp, {
      manifestVersion: 1,
      id: p.id,
      kind: def.kind,
      key,
      keyInputs: p.inputs!,
      outputDigest: products.digest,
      files: products.files,
      observationsDigest: observations.digest,
      observationFiles: observations.files,
      startedAt: startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      seconds,
      host: hostFacts(),
    });
    await dropTemp(); // renamed away by freeze: nothing left to remove
    const blocked = removeScratch(workDir); // never walks into a mount a path left behind
    if (blocked.length) options.log(`  ${p.id}: kept ${workDir}: still mounted below it: ${blocked.join(', ')}`);
    options.log(`✓ ${p.id} ran in ${seconds.toFixed(2)} s → ${products.digest.slice(0, 12)}`);
    this.ran.set(p.id, { id: p.id, uses: def.kind, key, action: 'ran', outputDigest: products.digest, seconds, reasons: p.reasons });
    this.publish({ ...p, manifest: store.readManifest(def.kind, key) }, plan);
  }

  /** Publishes a frozen stage (publish-stage.ts). */
  publish(p: PlannedStage, plan: readonly PlannedStage[]): void {
    publishStage(this.config, this.store, this.ctx.definitions.get(p.uses)!, p, plan, this.options.label ?? null, this.options.log);
  }

  async stopServices(): Promise<void> {
    const s = this.session;
    this.session = null;
    if (s) await s.stop();
  }

  private starts = 0;

  private async startServices(plan: readonly PlannedStage[]): Promise<void> {
    if (this.session) return;
    // A fresh folder per start: every service starts from its prepared data, with new data roots.
    const runDir = join(this.options.dataDir, 'run', `services-${process.pid}-${++this.starts}`);
    mkdirSync(runDir, { recursive: true });
    onCleanup(`service run folder ${runDir}`, () => void removeScratch(runDir)); // never walks into a mount
    const frozenDir = (stageId: string): string | null => {
      const p = plan.find((x) => x.id === stageId);
      return p?.key && p.manifest ? this.store.outputsDir(p.uses, p.key) : null;
    };
    this.session = await startServiceSession(this.config, frozenDir, runDir, this.options.log);
  }

  /** Frozen outputs of every stage this one needs, transitively, by stage id. */
  private inputsFor(id: string, plan: readonly PlannedStage[]): Record<string, StageInput> {
    const out: Record<string, StageInput> = {};
    for (const a of ancestors(this.config.stages, id)) {
      const p = plan.find((x) => x.id === a);
      const manifest = p?.key ? this.store.readManifest(p.uses, p.key) : null;
      if (!p?.key || !manifest) continue;
      out[a] = {
        id: a,
        kind: p.uses,
        outputDir: this.store.outputsDir(p.uses, p.key),
        outputDigest: manifest.outputDigest,
        observationsDir: this.store.observationsDir(p.uses, p.key),
        observationsDigest: manifest.observationsDigest ?? '',
      };
    }
    return out;
  }
}
