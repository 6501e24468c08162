// Build step (npm run build): emits dist/schemas/validators.cjs, ajv's
// standalone code of every pipeline and stage schema, so loading a pipeline
// loads no schema compiler. Run as `node dist/harness/config/compile-schemas.js`.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { projectRoot, schemasDir, stagesSourceDir } from '../process/project-root.js';
import { schemaSet } from './schema-set.js';
import { pipelineSchemaId, stageSchemaId } from './schema-ids.js';

const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

export const VALIDATORS_FILE = (): string => join(projectRoot(), 'dist', 'schemas', 'validators.cjs');

function main(): void {
  const kinds = readdirSync(stagesSourceDir())
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  const ajv = schemaSet(schemasDir(), kinds);
  const refs: Record<string, string> = { pipeline: pipelineSchemaId };
  for (const k of kinds) refs[`stage:${k}`] = stageSchemaId(k);
  const out = VALIDATORS_FILE();
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, standaloneCode(ajv, refs));
  process.stdout.write(`compiled ${Object.keys(refs).length} schema validators into ${out}\n`);
}

if (process.argv[1]?.endsWith('compile-schemas.js')) main();
