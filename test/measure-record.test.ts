// `--record DIR`: a real DuckDB journal that a later session resumes and that
// import-samples can read.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { UserError } from '../harness/errors.js';
import { buildCommands } from '../harness/measure/command-list.js';
import { MeasureRecord, type RecordIdentity } from '../harness/measure/measure-record.js';
import { runMeasurement, type MeasurePlan } from '../harness/measure/run-measurement.js';
import { tempDir } from './helpers/cli.js';

const commands = buildCommands(
  [
    { kind: 'argv', argv: ['true'] },
    { kind: 'argv', argv: ['sh', '-c', ':'] },
  ],
  { names: [], shell: 'none', parameters: [] },
);
const identity: RecordIdentity = { commands: commands.map((c) => ({ name: c.name, argv: c.argv })), seed: 'rec', warmup: 0, ready: 'none', marker: null };
const plan = (runs: number): MeasurePlan => ({
  commands,
  warmup: 0,
  runs,
  minRuns: 1,
  maxRuns: null,
  prepare: null,
  setup: null,
  cleanup: null,
  ready: 'none',
  marker: 'MARKER',
  timeoutMs: 10_000,
  seed: 'rec',
  ignoreFailure: false,
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  cwd: process.cwd(),
});

test('a second attempt of a record keeps the complete rounds and runs only the rest', async (t) => {
  const dir = tempDir();
  const first = await MeasureRecord.open(dir, identity, commands);
  await runMeasurement(plan(2), { record: first });
  await first.close();
  const second = await MeasureRecord.open(dir, identity, commands);
  const outcome = await runMeasurement(plan(4), { record: second });
  await second.finish();
  t.is(outcome.resumedRounds, 2);
  t.is(outcome.observations.length, 8);
  t.deepEqual([...new Set(outcome.observations.filter((o) => o.round > 2).map((o) => o.launchId.slice(-3)))], ['.a2']);
});

test('an incomplete round in the record is discarded and measured again', async (t) => {
  const source = await MeasureRecord.open(tempDir(), identity, commands);
  const { observations } = await runMeasurement(plan(2), { record: source });
  await source.close();
  // A record whose round 2 holds one launch of two, as if the run was killed inside it.
  const dir = tempDir();
  const cut = await MeasureRecord.open(dir, identity, commands);
  await cut.append(observations.filter((o) => o.round === 1));
  await cut.append(observations.filter((o) => o.round === 2).slice(0, 1));
  await cut.close();
  const resumed = await MeasureRecord.open(dir, identity, commands);
  t.deepEqual(
    resumed.earlier.map((o) => o.round),
    [1, 1],
  );
  const outcome = await runMeasurement(plan(2), { record: resumed });
  await resumed.close();
  t.deepEqual(
    outcome.observations.filter((o) => o.round === 2).map((o) => o.launchId.slice(-3)),
    ['.a2', '.a2'],
  );
});

test('a record of other commands is refused with a user error naming --record', async (t) => {
  const dir = tempDir();
  const r = await MeasureRecord.open(dir, identity, commands);
  await r.close();
  const other = { ...identity, seed: 'other' };
  const e = await t.throwsAsync(MeasureRecord.open(dir, other, commands));
  t.true(e instanceof UserError);
  t.is((e as UserError).place.key, '--record');
});

test("the record's samples.csv reads back through the import-samples parser", async (t) => {
  const dir = tempDir();
  const r = await MeasureRecord.open(dir, identity, commands);
  await runMeasurement(plan(2), { record: r });
  const csv = await r.finish();
  const rows = parseSampleCsv(readFileSync(csv, 'utf8'), 'samples.csv');
  t.is(rows.length, 4);
  t.deepEqual([...new Set(rows.map((row) => row['path']))].sort(), ['sh -c :', 'true']);
  t.true(rows.every((row) => row['phase'] === 'formal' && typeof row['completion_ms'] === 'number'));
});
