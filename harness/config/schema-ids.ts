// Names of the pipeline's JSON Schemas (no schema compiler here: loading a
// pipeline must not load ajv).
export const SCHEMA_BASE = 'https://benchgraph.invalid/schemas/';
/** Sections referenced by the pipeline schema; each accepts an object when its schema is absent. */
export const SECTIONS = ['experiment', 'artifacts', 'services', 'cohorts', 'paths', 'design', 'analysis', 'report', 'executor', 'data'];
export const pipelineSchemaId = `${SCHEMA_BASE}pipeline.schema.json`;
export const stageSchemaId = (kind: string): string => `${SCHEMA_BASE}stages/${kind}.schema.json`;
