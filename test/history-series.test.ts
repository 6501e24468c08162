import test from 'ava';
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { around, fileMadeUpRun, type MadeUpRun } from './helpers/history-runs.js';

const LAUNCH_64K = ['lazy-launch.sh', '--vfs-read-chunk-size', '64k'];
const LAUNCH_1M = ['lazy-launch.sh', '--vfs-read-chunk-size', '1M'];

function series(levels: number[], opts: { launchChangesAt?: number; fingerprintAt?: { run: number; cpuModel: string } } = {}): string {
  const root = tempDir('benchgraph-history-');
  const runsDir = join(root, 'runs');
  levels.forEach((level, i) => {
    const run: MadeUpRun = {
      cells: { 'shell lazy cold ready': around(level), 'shell oci-full cold ready': around(1000 + (i % 2)) },
      config: { paths: { lazy: { launch: opts.launchChangesAt && i + 1 >= opts.launchChangesAt ? LAUNCH_1M : LAUNCH_64K } }, design: { rounds: 5 } },
      time: `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00.000Z`,
      ...(opts.fingerprintAt && i + 1 >= opts.fingerprintAt.run ? { fingerprint: { cpuModel: opts.fingerprintAt.cpuModel } } : {}),
    };
    fileMadeUpRun(root, runsDir, run, i + 1);
  });
  return root;
}

interface HistoryJson {
  runs: { id: string; folder: string; time: string }[];
  changes: {
    cohort: string;
    path: string;
    state: string;
    metric: string;
    run: number;
    ratio: number;
    low: number;
    high: number;
    changed: { kind: string; key: string; before: string; after: string }[];
  }[];
}

async function historyJson(folder: string, extra: string[] = []): Promise<{ code: number | null; json: HistoryJson; stderr: string }> {
  const r = await runCli(['history', folder, '--json', ...extra], folder);
  return { code: r.code, json: JSON.parse(r.stdout.trim().split('\n').at(-1)!) as HistoryJson, stderr: r.stderr };
}

test('history on a made-up archive with a step at run 4 finds it there and names the one config key that changed', async (t) => {
  const root = series([300, 302, 299, 400, 401, 399], { launchChangesAt: 4 });
  const { code, json } = await historyJson(root);
  t.is(code, 0);
  t.is(json.runs.length, 6);
  t.deepEqual(
    json.changes.map((c) => [c.cohort, c.path, c.state, c.metric, c.run]),
    [['shell', 'lazy', 'cold', 'ready', 4]],
  );
  const change = json.changes[0]!;
  t.true(change.low > 1 && change.ratio > change.low && change.high > change.ratio);
  t.true(Math.abs(change.ratio - 400 / 300.33) < 0.01);
  t.deepEqual(change.changed, [{ kind: 'config', key: 'paths.lazy.launch', before: JSON.stringify(LAUNCH_64K), after: JSON.stringify(LAUNCH_1M) }]);
});

test('the JSON of history ends with runs and changes, in the shape the CLI documents', async (t) => {
  const root = series([300, 302, 299, 400, 401, 399], { launchChangesAt: 4 });
  const { json } = await historyJson(root);
  const keys = Object.keys(json);
  t.deepEqual(keys.slice(-2), ['runs', 'changes']);
  t.deepEqual(Object.keys(json.runs[0]!), ['id', 'folder', 'time']);
  t.deepEqual(Object.keys(json.changes[0]!), ['cohort', 'path', 'state', 'metric', 'run', 'ratio', 'low', 'high', 'changed']);
});

test('history finds no change in a flat made-up series', async (t) => {
  const { json } = await historyJson(series([300, 302, 299, 301, 300, 298]));
  t.deepEqual(json.changes, []);
});

test('a host fingerprint field that changed with the step is named with the host, beside no config key', async (t) => {
  const root = series([300, 302, 299, 400, 401, 399], { fingerprintAt: { run: 4, cpuModel: 'Intel Xeon' } });
  const { json } = await historyJson(root);
  t.is(json.changes.length, 1);
  t.deepEqual(json.changes[0]!.changed, [{ kind: 'host', key: 'cpuModel', before: 'AMD EPYC', after: 'Intel Xeon' }]);
});

test('--fail-on regression exits 1 when the latest run starts a slowdown in a watched cell, naming it', async (t) => {
  const root = series([300, 302, 299, 400]);
  const r = await runCli(['history', root, '--fail-on', 'regression', '--watch', 'shell.lazy.cold.ready'], root);
  t.is(r.code, 1, r.stderr);
  t.regex(r.stderr, /shell lazy cold ready \+33%/);
});

test('--fail-on regression exits 0 when the latest run starts a slowdown only in a cell nobody watches', async (t) => {
  const root = series([300, 302, 299, 400]);
  const r = await runCli(['history', root, '--fail-on', 'regression', '--watch', 'shell.oci-full.*.*'], root);
  t.is(r.code, 0, r.stderr);
});

test('--fail-on regression exits 0 when the latest run is faster', async (t) => {
  const root = series([300, 302, 299, 200]);
  const r = await runCli(['history', root, '--fail-on', 'regression'], root);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /shell lazy cold ready -33%/);
});

test('--fail-on regression exits 0 when the slowdown started before the latest run', async (t) => {
  const root = series([300, 302, 299, 400, 401, 399]);
  const r = await runCli(['history', root, '--fail-on', 'regression'], root);
  t.is(r.code, 0, r.stderr);
});

test('an unknown --fail-on value is a user error naming the flag', async (t) => {
  const root = series([300, 302, 299]);
  const r = await runCli(['history', root, '--fail-on', 'slower'], root);
  t.is(r.code, 2);
  t.regex(r.stderr, /^error: --fail-on: unknown --fail-on 'slower' \(use --fail-on regression\)\n$/);
});

// The documented shape, https://bencher.dev/bmf.json (Bencher Metric Format reference page).
const BMF_SCHEMA = {
  $id: 'https://bencher.dev/bmf.json',
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  patternProperties: {
    '.+': {
      type: 'object',
      patternProperties: {
        '.+': {
          type: 'object',
          properties: { value: { type: 'number' }, lower_value: { type: 'number' }, upper_value: { type: 'number' } },
          required: ['value'],
        },
      },
    },
  },
};

test('--export-bmf writes Bencher Metric Format JSON of the latest run that validates against the documented schema, with bounds around each value', async (t) => {
  const root = series([300, 302, 299, 400]);
  const file = join(root, 'bmf.json');
  const r = await runCli(['history', root, '--export-bmf', file], root);
  t.is(r.code, 0, r.stderr);
  const bmf = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, { value: number; lower_value: number; upper_value: number }>>;
  const validate = new (Ajv as unknown as typeof Ajv.default)({ strict: false }).compile(BMF_SCHEMA);
  t.true(validate(bmf), JSON.stringify(validate.errors));
  const m = bmf['shell lazy cold ready']!['latency']!;
  t.is(m.value, 400e6); // mean of 397, 400, 403 ms, in ns
  t.true(m.lower_value < m.value && m.value < m.upper_value);
  t.deepEqual(Object.keys(bmf).sort(), ['shell lazy cold ready', 'shell oci-full cold ready']);
});

test('history --write renders history.md and a history.html with one plot per cell', async (t) => {
  const root = series([300, 302, 299, 400, 401, 399], { launchChangesAt: 4 });
  const out = join(root, 'page');
  const r = await runCli(['history', root, '--write', out], root);
  t.is(r.code, 0, r.stderr);
  const html = readFileSync(join(out, 'history.html'), 'utf8');
  t.is(html.match(/<svg/g)?.length, 2);
  t.regex(
    readFileSync(join(out, 'history.md'), 'utf8'),
    /shell lazy cold ready \+33% \[\d+, \d+\] beyond the shared factor, between run 3 and run 4 .*paths\.lazy\.launch/,
  );
});

test('--by pins.NAME orders the series by the pinned binary version, 1.9 before 1.10, and names the binary that changed', async (t) => {
  const root = tempDir('benchgraph-history-');
  const versions = ['crun version 1.10', 'crun version 1.10', 'crun version 1.8', 'crun version 1.9', 'crun version 1.8', 'crun version 1.9'];
  versions.forEach((v, i) =>
    fileMadeUpRun(
      root,
      join(root, 'runs'),
      { cells: { 'shell lazy cold ready': around(v.endsWith('1.10') ? 400 : 300) }, config: {}, time: `2026-11-1${i}T10:00:00.000Z`, binaries: { crun: v } },
      i + 1,
    ),
  );
  const { json } = await historyJson(root, ['--by', 'pins.crun']);
  t.deepEqual(
    json.runs.map((r) => r.time.slice(0, 10)),
    ['2026-11-12', '2026-11-14', '2026-11-13', '2026-11-15', '2026-11-10', '2026-11-11'],
  );
  t.is(json.changes.length, 1);
  t.like(json.changes[0], { run: 5 });
  t.deepEqual(
    json.changes[0]!.changed.map((c) => [c.kind, c.key, c.before.split(' ')[2], c.after.split(' ')[2]]),
    [['binary', 'crun', '1.9', '1.10']],
  );
});

test('--by an unknown binary is a user error naming the pinned ones', async (t) => {
  const r = await runCli(['history', series([300, 301, 302]), '--by', 'pins.nope'], tempDir());
  t.is(r.code, 2);
  t.regex(r.stderr, /^error: --by: no run pins a binary named nope \(pinned binaries: crun\)\n$/);
});

test('a change that comes with noisy sessions names the host load beside the inputs', async (t) => {
  const root = tempDir('benchgraph-history-');
  [300, 302, 299, 400, 401, 399].forEach((level, i) =>
    fileMadeUpRun(
      root,
      join(root, 'runs'),
      {
        cells: { 'shell oci-full cold ready': around(level) },
        config: {},
        time: `2026-11-1${i}T10:00:00.000Z`,
        load: i >= 3 ? { noisy: true, idleShare: 0, rule: 'canary' } : { noisy: false, idleShare: 0.6, rule: 'canary' },
      },
      i + 1,
    ),
  );
  const { json } = await historyJson(root);
  t.deepEqual(json.changes[0]!.changed, [{ kind: 'load', key: 'sessions', before: '0/3 noisy, idle 60%, load 1.0', after: '3/3 noisy, idle 0%, load 1.0' }]);
  const text = await runCli(['history', root], root);
  t.regex(text.stdout, /changed: no recorded input of this cell; host: same; host load: 0\/3 noisy, idle 60%, load 1\.0 → 3\/3 noisy, idle 0%, load 1\.0/);
});

test('a config key of another path that changed at the step is listed as elsewhere, not as an input of the cell', async (t) => {
  const root = tempDir('benchgraph-history-');
  [300, 302, 299, 400, 401, 399].forEach((level, i) =>
    fileMadeUpRun(
      root,
      join(root, 'runs'),
      {
        cells: { 'shell oci-full cold ready': around(level) },
        config: { paths: { lazy: { launch: i >= 3 ? LAUNCH_1M : LAUNCH_64K } } },
        time: `2026-11-1${i}T10:00:00.000Z`,
      },
      i + 1,
    ),
  );
  const { json } = await historyJson(root);
  t.deepEqual(json.changes[0]!.changed, [
    { kind: 'config', key: 'paths.lazy.launch', before: JSON.stringify(LAUNCH_64K), after: JSON.stringify(LAUNCH_1M), elsewhere: true },
  ]);
  const text = await runCli(['history', root], root);
  t.regex(text.stdout, /changed: no recorded input of this cell; elsewhere: paths\.lazy\.launch \(/);
});

test('--fail-on regression with two sessions per run exits 0 at the first run after a slowdown and 1 at the second, when the change becomes reportable', async (t) => {
  const root = tempDir('benchgraph-history-');
  const two = (level: number): number[] => [level - 2, level + 2];
  const levels = [300, 302, 299, 400, 401];
  levels.forEach((level, i) =>
    fileMadeUpRun(root, join(root, 'runs'), { cells: { 'shell lazy cold ready': two(level) }, config: {}, time: `2026-11-1${i}T10:00:00.000Z` }, i + 1),
  );
  const folders = (await historyJson(root)).json.runs.map((r) => join(root, r.folder));
  const first = await runCli(['history', ...folders.slice(0, 4), '--fail-on', 'regression'], root);
  t.is(first.code, 0, first.stderr);
  const second = await runCli(['history', ...folders, '--fail-on', 'regression'], root);
  t.is(second.code, 1, second.stderr);
  t.regex(second.stderr, /shell lazy cold ready \+33% .* between run 3 and run 4/);
});
