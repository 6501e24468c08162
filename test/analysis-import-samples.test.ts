import test from 'ava';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { sampleColumns } from '../harness/db/sample-columns.js';
import { Database } from '../harness/db/duckdb.js';
import { noServices } from '../harness/contract/running-services.js';
import importSamples from '../stages/import-samples.js';

const header = 'experiment,cohort,path,state,phase,round,order_in_round,launch_id,ready_ms,completion_ms,ok,started_at';
const good = [
  header,
  'e,shell,docker,cold,formal,1,0,L1,101.5,110,true,2026-01-01T00:00:00Z',
  'e,shell,lazy,cold,formal,1,1,L2,,,false,2026-01-01T00:00:01Z',
].join('\n');

test('the column list matches schemas/sample.schema.json', async (t) => {
  const schema = JSON.parse(await readFile('schemas/sample.schema.json', 'utf8')) as { properties: Record<string, unknown>; required: string[] };
  t.deepEqual(sampleColumns.map((c) => c.name).sort(), Object.keys(schema.properties).sort());
  t.deepEqual(
    sampleColumns
      .filter((c) => c.required)
      .map((c) => c.name)
      .sort(),
    [...schema.required].sort(),
  );
});

test('a valid CSV parses into typed rows', (t) => {
  const rows = parseSampleCsv(good, 'samples.csv');
  t.is(rows.length, 2);
  t.is(rows[0]!['ready_ms'], 101.5);
  t.is(rows[1]!['ok'], false);
  t.is(rows[1]!['ready_ms'], null);
  t.is(rows[0]!['content_bytes'], null);
});

test('a bad row is rejected naming the file, line and column', (t) => {
  const bad = good + '\ne,shell,docker,Cold!,formal,2,0,L3,1,2,true,2026-01-01T00:00:02Z\n';
  const e = t.throws(() => parseSampleCsv(bad, 'samples.csv'), { instanceOf: UserError });
  t.regex(e!.format(), /^samples\.csv:4: column state: must be a condition name/);
  const phase = good + '\ne,shell,docker,cold,later,2,0,L3,1,2,true,2026-01-01T00:00:02Z\n';
  t.regex(
    t.throws(() => parseSampleCsv(phase, 'samples.csv'), { instanceOf: UserError })!.format(),
    /^samples\.csv:4: column phase: must be one of preflight, warmup, formal/,
  );
});

test('a non-numeric value is rejected naming its line and column', (t) => {
  const bad = good + '\ne,shell,docker,cold,formal,2,0,L3,fast,2,true,2026-01-01T00:00:02Z\n';
  const e = t.throws(() => parseSampleCsv(bad, 'samples.csv'), { instanceOf: UserError });
  t.regex(e!.format(), /^samples\.csv:4: column ready_ms: must be a finite number/);
});

test('import-samples writes samples.duckdb with every row', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-import-'));
  try {
    await writeFile(join(dir, 'samples.csv'), good);
    const out = join(dir, 'out');
    await mkdir(out);
    await importSamples.run({
      id: 'import',
      kind: 'import-samples',
      params: { file: 'samples.csv' },
      config: {} as never,
      outputDir: out,
      observationsDir: join(dir, 'obs'),
      inputs: {},
      workDir: dir,
      dataDir: dir,
      pipelineDir: dir,
      pipelineFile: join(dir, 'pipeline.yaml'),
      services: noServices,
      restartServices: async () => noServices,
      key: '0',
      log: () => {},
      interactive: false,
      signal: new AbortController().signal,
    });
    const db = await Database.open(join(out, 'samples.duckdb'), { readOnly: true });
    const row = await db.one('SELECT count(*) AS n, count(*) FILTER (WHERE NOT ok) AS failed FROM samples');
    db.close();
    t.is(Number(row!['n']), 2);
    t.is(Number(row!['failed']), 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
