// The plan of a run: for every stage, its key (when it can be known now), what
// the run will do with it and why. Pure apart from the registry's code digests
// and the files a stage reads: the store is seen through `readManifest`.
//
// Rules, all here and nowhere else:
//  - a stage whose key has a frozen output is reused, unless forced (--force);
//  - a stage without one runs, if --only selects it (or there is no --only);
//    one that --only leaves out is skipped, or is an error when a selected
//    stage needs it;
//  - a stage downstream of one that runs has no key yet: it runs after it
//    (early cutoff: once the upstream stage ran, planning again may find the
//    downstream key frozen, and then it is reused);
//  - a volatile stage (warmup) runs exactly when a stage that needs it runs,
//    right before it; forcing it forces the stages that need it.
import { dirname } from 'node:path';
import type { PipelineConfig, StageDecl } from '../config/pipeline-config.js';
import type { StageDefinition } from '../contract/stage.js';
import { UserError } from '../errors.js';
import { ancestors, topoOrder } from '../config/stage-graph.js';
import { explainChange } from './explain-change.js';
import type { LockFile } from './lock-file.js';
import { keyInputsFor, stageKey, type KeyInputs } from './stage-key.js';
import type { StageManifest } from './store.js';

export type PlanAction = 'run' | 'reuse' | 'skip';

export interface PlannedStage {
  id: string;
  uses: string;
  volatile: boolean;
  /** Null when a stage it needs runs first (its key depends on that output). */
  key: string | null;
  inputs: KeyInputs | null;
  action: PlanAction;
  /** Why it runs or is skipped, in words; empty when reused. */
  reasons: string[];
  /** The frozen output for `key`, if there is one. */
  manifest: StageManifest | null;
}

export interface PlanOptions {
  only?: readonly string[];
  force?: readonly string[];
  /** The lock file of the last successful run: its stages explain why a key changed. */
  lock?: LockFile | null;
}

export interface PlanContext {
  config: PipelineConfig;
  definitions: ReadonlyMap<string, StageDefinition>; // by kind
  code: (def: StageDefinition) => Record<string, string>;
  readManifest: (kind: string, key: string) => StageManifest | null;
}

export function planRun(ctx: PlanContext, options: PlanOptions = {}): PlannedStage[] {
  const { config } = ctx;
  const decls = new Map(config.stages.map((s) => [s.id, s]));
  const order = topoOrder(config.stages);
  const defOf = (id: string): StageDefinition => ctx.definitions.get(decls.get(id)!.uses)!;
  for (const [flag, names] of [
    ['--only', options.only],
    ['--force', options.force],
  ] as const) {
    for (const name of names ?? []) {
      if (!decls.has(name)) throw new UserError(`no stage with id '${name}'`, { key: flag }, `stage ids: ${order.join(', ')}`);
    }
  }
  const selected = options.only?.length ? new Set(options.only) : null;
  const forced = new Set(options.force ?? []);
  for (const f of [...forced]) {
    if (defOf(f).volatile) for (const s of config.stages) if (s.needs.includes(f)) forced.add(s.id);
  }
  const neededBySelected = new Set<string>();
  for (const s of selected ?? []) for (const a of ancestors(config.stages, s)) neededBySelected.add(a);

  const planned = new Map<string, PlannedStage>();
  for (const id of order) {
    const decl = decls.get(id)!;
    const def = defOf(id);
    const base = { id, uses: def.kind, volatile: def.volatile === true };
    const { needs, waitingOn } = needDigests(decl, def, planned, defOf);
    const inputs = keyInputsFor(def, ctx.code(def), decl.with, config as unknown as Record<string, unknown>, dirname(config.file), needs);
    // the last run's manifest explains a change; a reused stage needs none, so it is read only when asked
    const previous = (): StageManifest | null => previousManifest(ctx, options.lock, id);
    const inScope = !selected || selected.has(id);

    if (waitingOn.length) {
      const last = previous();
      const own = last ? explainChange(last.keyInputs, { ...inputs, needs: last.keyInputs.needs }) : [];
      const upstream = waitingOn.map((n) => `upstream ${n} runs first`);
      const runs = def.volatile || inScope;
      planned.set(id, {
        ...base,
        key: null,
        inputs: null,
        action: runs ? 'run' : 'skip',
        reasons: runs ? [...own, ...upstream] : ['not in --only; an upstream stage runs'],
        manifest: null,
      });
      continue;
    }
    const key = stageKey(inputs);
    const manifest = ctx.readManifest(def.kind, key);
    if (def.volatile) {
      // Decided below, once it is known whether a stage that needs it runs.
      planned.set(id, { ...base, key, inputs, action: manifest ? 'reuse' : 'skip', reasons: [], manifest });
      continue;
    }
    if (forced.has(id)) {
      planned.set(id, { ...base, key, inputs, action: 'run', reasons: ['forced with --force'], manifest });
    } else if (manifest) {
      planned.set(id, { ...base, key, inputs, action: 'reuse', reasons: [], manifest });
    } else if (inScope) {
      planned.set(id, { ...base, key, inputs, action: 'run', reasons: staleReasons(previous(), options.lock, id, inputs), manifest: null });
    } else if (neededBySelected.has(id)) {
      throw new UserError(
        `stage '${id}' has no frozen output for its current inputs, and --only leaves it out`,
        { key: '--only' },
        `add ${id} to --only, or run without --only`,
      );
    } else {
      planned.set(id, { ...base, key, inputs, action: 'skip', reasons: ['not in --only, and stale'], manifest: null });
    }
  }

  // A volatile stage runs with the stages that need it.
  for (const id of order) {
    const p = planned.get(id)!;
    if (!p.volatile) continue;
    const runners = config.stages.filter((s) => s.needs.includes(id) && planned.get(s.id)!.action === 'run').map((s) => s.id);
    if (runners.length) planned.set(id, { ...p, action: 'run', reasons: [`runs right before ${runners.join(', ')}`] });
    else if (!p.manifest) planned.set(id, { ...p, action: 'skip', reasons: ['runs only with a stage that needs it'] });
  }
  return order.map((id) => planned.get(id)!);
}

/** Needed stage id -> digest for the key; the needs whose output is not known yet. */
function needDigests(
  decl: StageDecl,
  def: StageDefinition,
  planned: ReadonlyMap<string, PlannedStage>,
  defOf: (id: string) => StageDefinition,
): { needs: Record<string, string>; waitingOn: string[] } {
  const needs: Record<string, string> = {};
  const waitingOn: string[] = [];
  for (const n of decl.needs) {
    const p = planned.get(n)!;
    if (defOf(n).volatile) {
      if (p.key) needs[n] = `key:${p.key}`;
      else waitingOn.push(n);
    } else if (p.action === 'reuse' && p.manifest) {
      const obs = def.readsObservations ? `+obs:${p.manifest.observationsDigest ?? 'none'}` : '';
      needs[n] = p.manifest.outputDigest + obs;
    } else {
      waitingOn.push(n);
    }
  }
  return { needs, waitingOn };
}

function previousManifest(ctx: PlanContext, lock: LockFile | null | undefined, id: string): StageManifest | null {
  const entry = lock?.stages[id];
  return entry ? ctx.readManifest(entry.uses, entry.key) : null;
}

function staleReasons(previous: StageManifest | null, lock: LockFile | null | undefined, id: string, inputs: KeyInputs): string[] {
  if (!previous) return [lock?.stages[id] ? 'its last frozen output is gone from the store' : 'never ran'];
  const reasons = explainChange(previous.keyInputs, inputs);
  return reasons.length ? reasons : ['frozen output for this key is missing'];
}
