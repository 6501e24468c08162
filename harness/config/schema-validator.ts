// Step 2 of config loading: JSON Schema validation (draft 2020-12), defaults
// applied, by the validators ajv compiled at build time (compile-schemas.ts)
// from schemas/*.schema.json and schemas/stages/<kind>.schema.json; the first
// error becomes a UserError that names file, line, column and key.
import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { UserError } from '../errors.js';
import { positionOf, type YamlSource } from './yaml-source.js';
import { validatorsFile } from './validators-file.js';
import { SECTIONS } from './schema-ids.js';
import { closest } from './closest-name.js';
import { schemaKeysAt } from './schema-keys.js';

interface Validate {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Keys that were copies of another and are read from it now (issue 42: one margin, one list of comparisons). */
const COPIES: Readonly<Record<string, string>> = {
  'design.adaptive.margin': 'analysis.practical.min_ratio_change',
  'design.adaptive.min_ms': 'analysis.practical.min_ms',
  'design.adaptive.comparisons': 'analysis.comparisons',
};

let validators: Record<string, Validate> | null = null;

/** The validators compiled at build time (dist/schemas/validators.cjs). */
function compiled(): Record<string, Validate> {
  if (validators) return validators;
  const file = validatorsFile();
  validators = createRequire(import.meta.url)(file) as Record<string, Validate>;
  return validators;
}

/** Validates the whole pipeline value in place (defaults applied). */
export function validatePipeline(src: YamlSource, value: Record<string, unknown>): void {
  for (const s of SECTIONS) if (value[s] === undefined && s !== 'experiment') value[s] = {};
  const validate = compiled()['pipeline']!;
  if (!validate(value)) throw toUserError(src, validate.errors![0]!, []);
}

/** Validates one stage's `with` against schemas/stages/<kind>.schema.json (defaults applied). */
export function validateStageParams(src: YamlSource, stageIndex: number, kind: string, params: Record<string, unknown>): void {
  const validate = compiled()[`stage:${kind}`];
  if (!validate) throw new Error(`no compiled schema for stage kind ${kind}: run 'npm run build'`);
  if (!validate(params)) throw toUserError(src, validate.errors![0]!, ['stages', stageIndex, 'with']);
}

function toUserError(src: YamlSource, err: ErrorObject, prefix: (string | number)[]): UserError {
  const path: (string | number)[] = [
    ...prefix,
    ...err.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
  ];
  let message = err.message ?? 'is invalid';
  let keyOfLast = false;
  if (err.keyword === 'additionalProperties') {
    const extra = String((err.params as { additionalProperty: string }).additionalProperty);
    path.push(extra);
    keyOfLast = true;
    message = 'unknown key';
    const copy = COPIES[path.join('.')];
    if (copy) return place(src, path, keyOfLast, `copies ${copy}, which it now reads`, `drop it and set ${copy} instead`);
    // only pipeline-level errors have a schema path from pipeline.schema.json (stage parameters have their own)
    const near = prefix.length === 0 ? closest(extra, schemaKeysAt(path.slice(0, -1))) : null;
    return place(src, path, keyOfLast, message, near ? `did you mean '${near}'?` : 'remove it or check its spelling against the schema');
  }
  if (err.keyword === 'required') {
    const missing = String((err.params as { missingProperty: string }).missingProperty);
    return place(src, path, false, `missing required key '${missing}'`, `add ${[...path, missing].join('.')}`);
  }
  if (err.keyword === 'enum') {
    const allowed = (err.params as { allowedValues: unknown[] }).allowedValues;
    message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (err.keyword === 'propertyNames') {
    const name = String((err.params as { propertyName: string }).propertyName);
    path.push(name);
    return place(src, path, true, `name '${name}' is not allowed`, 'use lowercase letters, digits, _ and -');
  }
  const got = valueAt(src.value, path);
  const gotText = got === undefined ? '' : ` (got ${JSON.stringify(got)})`;
  return place(src, path, false, `${message}${gotText}`, 'see the description of this key in schemas/');
}

function place(src: YamlSource, path: (string | number)[], keyOfLast: boolean, message: string, hint: string): UserError {
  const pos = positionOf(src, path, keyOfLast);
  const key =
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : p))
      .join('.')
      .replace(/\.\[/g, '[') || '(top level)';
  return new UserError(message, { file: src.file, line: pos.line, col: pos.col, key }, hint);
}

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p as string];
  }
  return cur;
}
