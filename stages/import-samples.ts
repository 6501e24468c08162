// import-samples: samples measured elsewhere, as a CSV with the columns of
// schemas/sample.schema.json, validated row by row and written to
// samples.duckdb (and session.json) exactly where the sample stage would.
// Under design.adaptive it also writes the looks of adaptive.json (the
// sessions the rule looked at), so analyze judges imported samples of a
// run that sampled until decided by the same sequential rule as the run.
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { sha256Hex } from '../harness/digest/sha256.js';
import { UserError } from '../harness/errors.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import { adaptiveDesign } from '../harness/experiment/adaptive-plan.js';
import type { SampleRow } from '../harness/db/sample-row.js';

const importSamples: StageDefinition = {
  kind: 'import-samples',
  description: 'Reads sample rows from a CSV (columns of schemas/sample.schema.json) into samples.duckdb',
  reads: ['design.adaptive'],
  inputFiles: (params) => (typeof params['file'] === 'string' && params['file'] ? [params['file']] : []),
  async run(ctx) {
    const rel = ctx.params['file'];
    if (typeof rel !== 'string' || rel === '') {
      throw new UserError(
        'missing the CSV file to import',
        { file: ctx.pipelineFile, key: `stages.${ctx.id}.with.file` },
        'give a path relative to the pipeline file',
      );
    }
    const file = resolve(ctx.pipelineDir, rel);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new UserError(`cannot read ${rel}`, { file: ctx.pipelineFile, key: `stages.${ctx.id}.with.file` }, 'the path is relative to the pipeline file');
    }
    const rows = parseSampleCsv(text, rel);
    await writeSamplesTable(join(ctx.outputDir, 'samples.duckdb'), rows);
    const distinct = (col: keyof SampleRow, phase?: string): string[] =>
      [...new Set(rows.filter((r) => !phase || r['phase'] === phase).map((r) => String(r[col])))].sort();
    const session = {
      seed: null,
      rounds: distinct('round', 'formal').length,
      warmupRounds: distinct('round', 'warmup').length,
      preflight: rows.filter((r) => r['phase'] === 'preflight').length,
      paths: distinct('path'),
      cohorts: distinct('cohort'),
      states: distinct('state'),
      sessions: [],
      imported: { file: rel, sha256: sha256Hex(text), rows: rows.length },
    };
    await writeFile(join(ctx.outputDir, 'session.json'), JSON.stringify(session, null, 2) + '\n');
    const adaptive = adaptiveDesign((ctx.config.design as unknown as Record<string, unknown> | undefined)?.['adaptive']);
    if (adaptive) {
      const looks = {
        format: 'benchgraph-adaptive/1',
        minSessions: adaptive.minSessions,
        maxSessions: adaptive.maxSessions,
        spendingRho: adaptive.spendingRho,
        imported: { file: rel },
      };
      await writeFile(join(ctx.outputDir, 'adaptive.json'), JSON.stringify(looks, null, 2) + '\n');
    }
    ctx.log(`import-samples: ${rows.length} rows from ${rel}`);
  },
};

export default importSamples;
