// Runs the stage graph: every stage whose key has a frozen output is reused,
// the others run in dependency order and are frozen. Volatile stages (warmup)
// run right before a stage that needs them runs; services are started around
// the stages that need them.
import { appendFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { removeScratch } from '../process/safe-remove.js';
import { basename, join, dirname, relative } from 'node:path';
import type { PipelineConfig, StageDecl } from '../config/pipeline-config.js';
import { UserError } from '../errors.js';
import { noServices } from '../services/running-services.js';
import { onCleanup, shutdownSignal } from '../process/cleanup.js';
import { hostFacts } from './host-facts.js';
import { folderDigest } from '../digest/merkle.js';
import { keyInputsFor, stageKey, type KeyInputs } from './stage-key.js';
import { loadStage } from './stage-registry.js';
import type { StageDefinition, StageInput } from '../contract/stage.js';
import { Store } from './store.js';
import { reusableManifest } from './frozen-check.js';
import { writeLock, type LockEntry } from './lock-file.js';
import { ancestors, topoOrder } from '../config/stage-graph.js';
import { startServiceSession, type ServiceSession } from './service-session.js';

export type StageAction = 'ran' | 'reused' | 'skipped' | 'would-run' | 'would-reuse';

export interface StageOutcome {
  id: string;
  uses: string;
  key: string | null;
  action: StageAction;
  outputDigest: string | null;
  seconds: number;
}

export interface RunOptions {
  dataDir: string;
  only?: readonly string[];
  force?: readonly string[];
  dryRun?: boolean;
  log: (line: string) => void;
  interactive: boolean;
}

interface Resolved {
  decl: StageDecl;
  def: StageDefinition;
}

export async function runPipeline(config: PipelineConfig, options: RunOptions): Promise<StageOutcome[]> {
  const store = new Store(options.dataDir);
  const decls = new Map(config.stages.map((s) => [s.id, s]));
  const resolved = new Map<string, Resolved>();
  for (const s of config.stages) resolved.set(s.id, { decl: s, def: await loadStage(s.uses) });
  const order = topoOrder(config.stages);

  for (const name of [...(options.only ?? []), ...(options.force ?? [])]) {
    if (!decls.has(name)) throw new UserError(`no stage with id '${name}'`, { key: options.only?.includes(name) ? '--only' : '--force' }, `stage ids: ${order.join(', ')}`);
  }
  const selected = options.only?.length ? new Set(options.only) : null;
  const forced = new Set(options.force ?? []);
  // A volatile stage runs only with a stage that needs it: forcing it forces them.
  for (const f of [...forced]) {
    if (resolved.get(f)?.def.volatile) for (const s of config.stages) if (s.needs.includes(f)) forced.add(s.id);
  }

  const outcomes = new Map<string, StageOutcome>();
  const frozen = new Map<string, StageInput>(); // stage id -> frozen output
  const keys = new Map<string, { key: string; inputs: KeyInputs }>();
  let session: ServiceSession | null = null;

  const computeKey = (id: string): { key: string; inputs: KeyInputs } | null => {
    const { decl, def } = resolved.get(id)!;
    const needs: Record<string, string> = {};
    for (const n of decl.needs) {
      const nd = resolved.get(n)!;
      if (nd.def.volatile) {
        const k = keys.get(n);
        if (!k) return null;
        needs[n] = `key:${k.key}`;
      } else {
        const f = frozen.get(n);
        if (!f) return null;
        needs[n] = f.outputDigest;
      }
    }
    const inputs = keyInputsFor(def, decl.with, config as unknown as Record<string, unknown>, dirname(config.file), needs);
    return { key: stageKey(inputs), inputs };
  };

  const inputsFor = (id: string): Record<string, StageInput> => {
    const out: Record<string, StageInput> = {};
    for (const a of ancestors(config.stages, id)) {
      const f = frozen.get(a);
      if (f) out[a] = f;
    }
    return out;
  };

  const ensureServices = async (): Promise<void> => {
    if (session) return;
    const runDir = join(options.dataDir, 'run', `services-${process.pid}`);
    mkdirSync(runDir, { recursive: true });
    onCleanup(`service run folder ${runDir}`, () => void removeScratch(runDir)); // left behind before: run/services-PID after every run
    session = await startServiceSession(
      config,
      (stageId) => frozen.get(stageId)?.outputDir ?? null,
      runDir,
      options.log,
    );
  };
  const stopServices = async (): Promise<void> => {
    if (!session) return;
    const s: ServiceSession = session;
    session = null;
    await s.stop();
  };

  const execute = async (id: string, k: { key: string; inputs: KeyInputs }): Promise<StageOutcome> => {
    const { decl, def } = resolved.get(id)!;
    if (def.services) await ensureServices();
    const temp = store.makeTemp(def.kind, k.key);
    const dropTemp = onCleanup(`temporary outputs of ${id}`, () => rmSync(temp, { recursive: true, force: true }));
    const workDir = store.workDir(def.kind, k.key);
    mkdirSync(workDir, { recursive: true });
    const startedAt = new Date();
    const t0 = process.hrtime.bigint();
    options.log(`▶ ${id} (${def.kind}) running`);
    appendFileSync(join(options.dataDir, 'executions.log'), `${startedAt.toISOString()}\t${id}\t${def.kind}\t${k.key}\n`);
    try {
      await def.run({
        id,
        kind: def.kind,
        params: decl.with,
        config,
        outputDir: join(temp, 'outputs'),
        inputs: inputsFor(id),
        workDir,
        dataDir: options.dataDir,
        pipelineDir: dirname(config.file),
        pipelineFile: config.file,
        services: session ? (session as ServiceSession).services : noServices,
        key: k.key,
        log: (line) => {
          if (options.interactive) process.stderr.write('\r\x1b[K');
          options.log(`  ${id}: ${line}`);
        },
        interactive: options.interactive,
        progress: (line) => {
          if (options.interactive) process.stderr.write(`\r\x1b[K  ${id}: ${line}`);
        },
        signal: shutdownSignal,
      });
    } catch (e) {
      await dropTemp();
      throw e;
    }
    const { digest, files } = await folderDigest(join(temp, 'outputs'));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    store.freeze(temp, {
      manifestVersion: 1,
      id,
      kind: def.kind,
      key: k.key,
      keyInputs: k.inputs,
      outputDigest: digest,
      files,
      startedAt: startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      seconds,
      host: hostFacts(),
    });
    await dropTemp(); // renamed away by freeze: nothing left to remove
    const blocked = removeScratch(workDir); // never walks into a mount a path left behind
    if (blocked.length) options.log(`  ${id}: kept ${workDir}: still mounted below it: ${blocked.join(', ')}`);
    options.log(`✓ ${id} ran in ${seconds.toFixed(2)} s → ${digest.slice(0, 12)}`);
    return { id, uses: def.kind, key: k.key, action: 'ran', outputDigest: digest, seconds };
  };

  const publish = (id: string): void => {
    const { def } = resolved.get(id)!;
    const f = frozen.get(id);
    if (!def.publishDir || !f) return;
    const target = join(projectDirOf(config.file), def.publishDir(config));
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    cpSync(f.outputDir, target, { recursive: true });
    options.log(`  published ${relative(process.cwd(), target) || target}`);
  };

  const volatileRan = new Set<string>();
  try {
    for (const id of order) {
      const { decl, def } = resolved.get(id)!;
      const k = computeKey(id);
      if (!k) {
        // An upstream stage would run first (dry run), or --only left it out and it has no frozen output.
        outcomes.set(id, { id, uses: def.kind, key: null, action: options.dryRun && !selected ? 'would-run' : 'skipped', outputDigest: null, seconds: 0 });
        continue;
      }
      keys.set(id, k);
      if (def.volatile) {
        // Whether it runs is decided when a stage that needs it is reached; its
        // frozen output (if any) is an input of later stages either way, so
        // their inputs do not depend on whether it ran in this run.
        const frozenVolatile = store.readManifest(def.kind, k.key);
        if (frozenVolatile) frozen.set(id, { id, kind: def.kind, outputDir: store.outputsDir(def.kind, k.key), outputDigest: frozenVolatile.outputDigest });
        continue;
      }

      const manifest = await reusableManifest(store, id, def.kind, k.key, forced.has(id)); // frozen-check.ts: a corrupted frozen output is refused, or rebuilt when forced
      const inScope = !selected || selected.has(id);
      const mustRun = forced.has(id) || (!manifest && inScope);
      if (!mustRun && !manifest) {
        const neededBySelected = [...(selected ?? [])].some((sel) => ancestors(config.stages, sel).has(id));
        if (!neededBySelected) {
          outcomes.set(id, { id, uses: def.kind, key: k.key, action: 'skipped', outputDigest: null, seconds: 0 });
          options.log(`- ${id} skipped (not in --only, stale)`);
          continue;
        }
        throw new UserError(
          `stage '${id}' has no frozen output for its current inputs, and --only leaves it out`,
          { key: '--only' },
          `add ${id} to --only, or run without --only`,
        );
      }
      if (options.dryRun) {
        outcomes.set(id, { id, uses: def.kind, key: k.key, action: mustRun ? 'would-run' : 'would-reuse', outputDigest: manifest?.outputDigest ?? null, seconds: 0 });
        // A stage that would run leaves its dependents without a key: they would run too.
        if (manifest && !mustRun) frozen.set(id, { id, kind: def.kind, outputDir: store.outputsDir(def.kind, k.key), outputDigest: manifest.outputDigest });
        continue;
      }
      if (!mustRun && manifest) {
        frozen.set(id, { id, kind: def.kind, outputDir: store.outputsDir(def.kind, k.key), outputDigest: manifest.outputDigest });
        outcomes.set(id, { id, uses: def.kind, key: k.key, action: 'reused', outputDigest: manifest.outputDigest, seconds: 0 });
        options.log(`· ${id} reused ${manifest.outputDigest.slice(0, 12)}`);
        publish(id);
        continue;
      }
      // This stage runs: first the volatile stages it needs (its sampling session).
      for (const n of decl.needs) {
        const nd = resolved.get(n)!;
        if (!nd.def.volatile || volatileRan.has(n)) continue;
        const nk = keys.get(n)!;
        const out = await execute(n, nk);
        volatileRan.add(n);
        frozen.set(n, { id: n, kind: nd.def.kind, outputDir: store.outputsDir(nd.def.kind, nk.key), outputDigest: out.outputDigest! });
        outcomes.set(n, out);
      }
      const out = await execute(id, k);
      frozen.set(id, { id, kind: def.kind, outputDir: store.outputsDir(def.kind, k.key), outputDigest: out.outputDigest! });
      outcomes.set(id, out);
      publish(id);
      // Services stay up only while the next stage in order needs them too.
      const next = order[order.indexOf(id) + 1];
      if (session && (!next || !resolved.get(next)!.def.services)) await stopServices();
    }
  } finally {
    await stopServices();
  }

  // Volatile stages that no running stage needed: reused if frozen, else skipped.
  for (const id of order) {
    const { def } = resolved.get(id)!;
    if (!def.volatile || outcomes.has(id)) continue;
    const k = keys.get(id);
    const manifest = k ? store.readManifest(def.kind, k.key) : null;
    const dependentRuns = config.stages.some((x) => x.needs.includes(id) && outcomes.get(x.id)?.action === 'would-run');
    outcomes.set(id, {
      id,
      uses: def.kind,
      key: k?.key ?? null,
      action: options.dryRun ? (dependentRuns ? 'would-run' : 'would-reuse') : manifest ? 'reused' : 'skipped',
      outputDigest: manifest?.outputDigest ?? null,
      seconds: 0,
    });
  }

  if (!options.dryRun) {
    const entries: Record<string, LockEntry> = {};
    for (const o of outcomes.values()) {
      if (o.key && o.outputDigest) entries[o.id] = { uses: o.uses, key: o.key, outputDigest: o.outputDigest };
    }
    writeLock(config.file, entries, config.stages.map((s) => s.id));
  }
  return order.filter((id) => outcomes.has(id)).map((id) => outcomes.get(id)!);
}

/**
 * The folder published outputs (reports/) are relative to: the pipeline
 * file's folder, or its parent when the file sits in a `pipelines/` folder.
 */
export function projectDirOf(pipelineFile: string): string {
  const dir = dirname(pipelineFile);
  return basename(dir) === 'pipelines' ? dirname(dir) : dir;
}
