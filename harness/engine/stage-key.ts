// Stage key = sha256 of the canonical JSON of everything a stage's products can
// depend on: kind, code digests, the config it reads, its parameters, the files
// it reads from outside the store and the product digests of the stages it
// needs (plus their observation digests when the stage reads observations).
import { canonicalJson } from '../digest/canonical-json.js';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';
import type { StageDefinition } from '../contract/stage.js';

export interface KeyInputs {
  kind: string;
  /** project-relative source path -> sha256 of what runs */
  code: Record<string, string>;
  /** config sections (or dotted keys) the stage reads -> their values */
  config: Record<string, unknown>;
  params: Record<string, unknown>;
  /** files outside the store the stage reads (as written in its parameters) -> sha256, or 'missing' */
  files?: Record<string, string>;
  /** needed stage id -> its output digest (or `key:<key>` for a volatile stage; `+obs:<digest>` appended when observations are read) */
  needs: Record<string, string>;
}

export function stageKey(inputs: KeyInputs): string {
  return sha256Hex(canonicalJson(inputs));
}

/** The config slice a stage reads: each entry is a top-level section or a dotted key. */
export function configSlice(config: Record<string, unknown>, reads: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of [...reads].sort()) {
    let cur: unknown = config;
    for (const seg of r.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    out[r] = cur === undefined ? null : cur;
  }
  return out;
}

/** sha256 of each input file named by a stage (reads the files). */
export function inputFileDigests(names: readonly string[], baseDir: string): Record<string, string> | undefined {
  if (!names.length) return undefined;
  const out: Record<string, string> = {};
  for (const n of [...names].sort()) {
    const abs = isAbsolute(n) ? n : join(baseDir, n);
    out[n] = existsSync(abs) ? sha256Hex(readFileSync(abs)) : 'missing';
  }
  return out;
}

/** The upstream output digests of a needs map, without the `+obs:` digest a stage reading observations adds. */
const outputDigestsOf = (needs: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(needs).map(([id, d]) => [id, d.split('+obs:')[0]!]));

/** Key inputs of a stage (reads its input files). */
export function keyInputsFor(
  def: Pick<StageDefinition, 'kind' | 'reads' | 'inputFiles' | 'keyConfig'>,
  code: Record<string, string>,
  params: Record<string, unknown>,
  config: Record<string, unknown>,
  pipelineDir: string,
  needs: Record<string, string>,
): KeyInputs {
  return {
    kind: def.kind,
    code,
    config: def.keyConfig ? def.keyConfig(configSlice(config, def.reads), pipelineDir) : configSlice(config, def.reads),
    params,
    files: inputFileDigests(def.inputFiles?.(params, { pipelineDir, needs: outputDigestsOf(needs) }) ?? [], pipelineDir),
    needs,
  };
}
