// Step 2 of config loading: JSON Schema validation with ajv (draft 2020-12),
// defaults applied. Schemas live in schemas/*.schema.json and
// schemas/stages/<kind>.schema.json; the first error becomes a UserError that
// names file, line, column and key.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { UserError } from '../errors.js';
import { positionOf, type YamlSource } from './yaml-source.js';
import { schemasDir } from '../process/project-root.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
type Ajv = InstanceType<typeof Ajv2020>;

const SCHEMA_BASE = 'https://benchgraph.invalid/schemas/';
/** Sections referenced by the pipeline schema; each accepts an object when its schema is absent. */
const SECTIONS = ['experiment', 'artifacts', 'services', 'cohorts', 'paths', 'design', 'analysis', 'report'];

let ajvInstance: Ajv | null = null;

function ajv(): Ajv {
  if (ajvInstance) return ajvInstance;
  const a = new Ajv2020({ useDefaults: true, allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true });
  a.addFormat('regex', (s: string) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  });
  const dir = schemasDir();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort()) {
    a.addSchema(readSchema(join(dir, f)));
  }
  for (const s of SECTIONS) {
    if (!a.getSchema(`${SCHEMA_BASE}${s}.schema.json`)) {
      a.addSchema({ $id: `${SCHEMA_BASE}${s}.schema.json`, type: 'object' });
    }
  }
  ajvInstance = a;
  return a;
}

/** A schema file; a default at its root is dropped (ajv ignores it there; the loader fills empty sections). */
function readSchema(file: string): Record<string, unknown> {
  const { default: _rootDefault, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return schema;
}

function validatorFor(id: string): ValidateFunction {
  const v = ajv().getSchema(`${SCHEMA_BASE}${id}`);
  if (!v) throw new Error(`schema ${id} is not loaded`);
  return v;
}

/** Validates the whole pipeline value in place (defaults applied). */
export function validatePipeline(src: YamlSource, value: Record<string, unknown>): void {
  for (const s of SECTIONS) if (value[s] === undefined && s !== 'experiment') value[s] = {};
  const validate = validatorFor('pipeline.schema.json');
  if (!validate(value)) throw toUserError(src, validate.errors![0]!, []);
}

export function hasStageSchema(kind: string): boolean {
  return existsSync(join(schemasDir(), 'stages', `${kind}.schema.json`));
}

/** Validates one stage's `with` against schemas/stages/<kind>.schema.json (defaults applied). */
export function validateStageParams(src: YamlSource, stageIndex: number, kind: string, params: Record<string, unknown>): void {
  const file = join(schemasDir(), 'stages', `${kind}.schema.json`);
  const a = ajv();
  const id = `${SCHEMA_BASE}stages/${kind}.schema.json`;
  if (!a.getSchema(id)) {
    const schema = existsSync(file) ? readSchema(file) : { type: 'object', additionalProperties: false, properties: {} };
    a.addSchema({ ...schema, $id: id });
  }
  const validate = a.getSchema(id)!;
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
    return place(src, path, keyOfLast, message, 'remove it or check its spelling against the schema');
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
  const key = path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[') || '(top level)';
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
