// The shape of each export of a real two-command measurement.
import test from 'ava';
import { buildCommands } from '../harness/measure/command-list.js';
import { exportCsv, exportJson, exportMarkdown } from '../harness/measure/export-formats.js';
import { summarizeMeasurement } from '../harness/measure/measure-summary.js';
import { runMeasurement, type MeasurePlan } from '../harness/measure/run-measurement.js';
import { scanValues } from '../harness/measure/command-list.js';

const RUNS = 3;
const commands = buildCommands([{ kind: 'string', text: 'sleep 0.00{n}' }], { names: [], shell: 'none', parameters: [scanValues('n', '1', '2', undefined)] });
const plan: MeasurePlan = {
  commands,
  warmup: 0,
  runs: RUNS,
  minRuns: 1,
  maxRuns: null,
  prepare: null,
  setup: null,
  cleanup: null,
  ready: 'none',
  marker: 'MARKER',
  timeoutMs: 10_000,
  seed: 'exports',
  ignoreFailure: false,
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  cwd: process.cwd(),
};
const measured = runMeasurement(plan).then(({ observations }) => ({
  observations,
  summary: summarizeMeasurement(commands, observations, { resamples: 500, confidence: 0.95, seed: 'exports' }),
}));

test("the JSON export has hyperfine's result fields in seconds, one time per run, and the pairs", async (t) => {
  const { observations, summary } = await measured;
  const json = JSON.parse(exportJson(summary, commands, observations)) as { results: Record<string, unknown>[]; pairs: Record<string, unknown>[] };
  t.is(json.results.length, 2);
  for (const r of json.results) {
    for (const k of ['command', 'mean', 'stddev', 'median', 'user', 'system', 'min', 'max', 'times', 'exit_codes', 'parameters', 'p95']) t.true(k in r, k);
    t.is((r['times'] as number[]).length, RUNS);
    t.true((r['median'] as number) < 1, 'seconds, not ms');
  }
  t.deepEqual(Object.keys(json.pairs[0]!).sort(), [
    'base',
    'detected',
    'difference',
    'difference_high',
    'difference_low',
    'metric',
    'other',
    'ratio',
    'ratio_high',
    'ratio_low',
    'rounds',
    'verdict',
  ]);
});

test('the CSV export has a header and one row per command with the same number of fields', async (t) => {
  const { summary } = await measured;
  const lines = exportCsv(summary, commands).trim().split('\n');
  t.deepEqual(lines[0]!.split(','), ['command', 'mean', 'stddev', 'median', 'user', 'system', 'min', 'max', 'p95', 'runs', 'failures', 'parameter_n']);
  t.is(lines.length, 3);
  for (const l of lines.slice(1)) t.is(l.split(',').length, 12);
  t.true(lines[2]!.endsWith(',2'));
});

test('the Markdown export is a table with the unit in the header and one row per command', async (t) => {
  const { summary } = await measured;
  const lines = exportMarkdown(summary, 'microsecond').trim().split('\n');
  t.is(lines[0], '| Command | Median [µs] | P95 [µs] | Min [µs] | Max [µs] | Relative |');
  t.regex(lines[1]!, /^\|:---\|(---:\|){5}$/);
  t.is(lines.length, 4);
  t.is(lines.filter((l) => l.endsWith('| 1.00 |')).length, 1, 'the fastest command is the reference');
  for (const l of lines.slice(2)) t.is(l.split(' | ').length, 6);
});
