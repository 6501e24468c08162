// `extends: FILE` in a pipeline file: the file named (relative to this one)
// is loaded first, then this file's keys are laid over it. Mappings merge key
// by key, lists and scalars are replaced, and a key set to null is removed
// (so a variant can drop a base's image or notes). A base may extend another;
// a missing base or a cycle is a UserError at the `extends:` line (exit 2).
// Used by the mini pipelines: a variant states only what differs.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { parseYamlSource, positionOf, type YamlSource } from './yaml-source.js';

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Pure: `over` laid on `base`: mappings merged, lists and scalars replaced, null removes the key. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isMapping(base) || !isMapping(over)) return over;
  const out: Mapping = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else out[k] = k in base ? deepMerge(base[k], v) : v;
  }
  return out;
}

/** The mapping of `src` with its `extends:` chain resolved (the key itself dropped); `chain`: the absolute files on the way here. */
export function resolveExtends(src: YamlSource, abs: string, chain: readonly string[] = []): Mapping {
  const value = src.value as Mapping;
  const ext = value['extends'];
  if (ext === undefined) return value;
  const at = positionOf(src, ['extends']);
  const place = { file: src.file, line: at.line, col: at.col, key: 'extends' };
  if (typeof ext !== 'string' || !ext) throw new UserError('extends must name a pipeline file', place, 'write extends: ../pipeline.yaml');
  const baseAbs = resolve(dirname(abs), ext);
  const seen = [...chain, abs];
  if (seen.includes(baseAbs)) {
    const names = [...seen, baseAbs].map((f) => relative(process.cwd(), f) || f);
    throw new UserError(`a cycle: ${names.join(' -> ')}`, place, 'remove one extends: of the cycle');
  }
  let text: string;
  try {
    text = readFileSync(baseAbs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`${code === 'ENOENT' ? 'no such file' : `cannot read (${code})`} ${ext}`, place, 'name a pipeline file relative to this one');
  }
  const baseSrc = parseYamlSource(relative(process.cwd(), baseAbs) || baseAbs, text);
  if (!isMapping(baseSrc.value)) throw new UserError('the extended pipeline file must be a mapping of sections', place);
  const base = resolveExtends(baseSrc, baseAbs, seen);
  const { extends: _dropped, ...own } = value;
  return deepMerge(base, own) as Mapping;
}
