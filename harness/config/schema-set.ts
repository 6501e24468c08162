// The pipeline's JSON Schemas as one ajv instance: schemas/*.schema.json, an
// object placeholder for each section without a schema, and
// schemas/stages/<kind>.schema.json (an empty object schema for a kind without
// one). Used at build time to emit standalone validators, so a command never
// compiles a schema at run time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { SCHEMA_BASE, SECTIONS, stageSchemaId } from './schema-ids.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/** Every schema, for the given stage kinds, in one ajv instance (source code kept for standalone output). */
export function schemaSet(schemasDir: string, stageKinds: readonly string[]): Ajv {
  const a = new Ajv2020({ useDefaults: true, allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true, code: { source: true } });
  for (const f of readdirSync(schemasDir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort())
    a.addSchema(readSchema(join(schemasDir, f)));
  for (const s of SECTIONS) {
    if (!a.getSchema(`${SCHEMA_BASE}${s}.schema.json`)) a.addSchema({ $id: `${SCHEMA_BASE}${s}.schema.json`, type: 'object' });
  }
  for (const kind of [...stageKinds].sort()) {
    const file = join(schemasDir, 'stages', `${kind}.schema.json`);
    const schema = existsSync(file) ? readSchema(file) : { type: 'object', additionalProperties: false, properties: {} };
    a.addSchema({ ...schema, $id: stageSchemaId(kind) });
  }
  return a;
}

/** A schema file; a default at its root is dropped (ajv ignores it there; the loader fills empty sections). */
function readSchema(file: string): Record<string, unknown> {
  const { default: _rootDefault, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return schema;
}
