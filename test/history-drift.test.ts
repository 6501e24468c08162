// `pipeline history` against run-to-run drift (issue 28), on made-up archived
// runs (our own logic): a move of every cell is one shared shift, not a change
// per cell; a cell change is one beyond it; causes are only what could have
// moved a sample; a run given twice counts once; too few runs say what they
// cannot show.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { runCli, tempDir } from './helpers/cli.js';
import { fileMadeUpRun, type MadeUpRun } from './helpers/history-runs.js';

const CELLS: Record<string, number> = {
  'shell docker cold ready': 300,
  'shell lazy cold ready': 150,
  'numpy docker cold ready': 5000,
  'numpy lazy cold ready': 2500,
  'numpy lazy warm ready': 800,
  'shell oci-full warm ready': 60,
};

/** Six runs: every cell ×shared from run 4 on, `moved` ×extra more; each run level jittered by up to ±1%, three sessions ±0.5%. */
function series(opts: { shared: number; moved?: { cell: string; extra: number }; run?: (i: number) => Partial<MadeUpRun> }): string {
  const root = tempDir('benchgraph-drift-');
  const random = seededRandom('made-up drift series');
  for (let i = 0; i < 6; i++) {
    const cells: Record<string, number[]> = {};
    for (const [cell, level] of Object.entries(CELLS)) {
      const at = level * (i >= 3 ? opts.shared * (opts.moved?.cell === cell ? opts.moved.extra : 1) : 1) * (1 + 0.02 * (random() - 0.5));
      cells[cell] = [at * 0.995, at, at * 1.005];
    }
    fileMadeUpRun(root, join(root, 'runs'), { cells, config: {}, time: `2026-11-1${i}T10:00:00.000Z`, sampleKey: 'same-sample-key', ...opts.run?.(i) }, i + 1);
  }
  return root;
}

interface Json {
  shifts: { run: number; ratio: number; low: number; high: number; cells: number; cause: string }[];
  changes: { cohort: string; path: string; state: string; metric: string; run: number; ratio: number; changed: { kind: string; key: string }[] }[];
  runs: { id: string }[];
}

async function history(args: string[], cwd: string): Promise<{ code: number | null; json: Json; stderr: string }> {
  const r = await runCli(['history', ...args, '--json'], cwd);
  return { code: r.code, json: JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Json, stderr: r.stderr };
}

test('same-key runs whose cells all move ×1.15 from run 4 give no cell change and one shared shift at run 4 (made-up data)', async (t) => {
  const root = series({ shared: 1.15 });
  const { code, json } = await history([root], root);
  t.is(code, 0);
  t.deepEqual(json.changes, []);
  t.is(json.shifts.length, 1);
  const s = json.shifts[0]!;
  t.like(s, { run: 4, cells: 6 });
  t.true(s.low < 1.15 && 1.15 < s.high, `${s.low} ${s.high}`);
  t.regex(s.cause, /^run effect: no input of the sample stage changed \(same sample-stage key same-sample-\); host: same$/);
});

test('the same series with one cell ×1.4 more from run 4 gives exactly that cell change, beyond the shared shift (made-up data)', async (t) => {
  const root = series({ shared: 1.15, moved: { cell: 'numpy lazy warm ready', extra: 1.4 } });
  const { json } = await history([root], root);
  t.deepEqual(
    json.changes.map((c) => [c.cohort, c.path, c.state, c.metric, c.run]),
    [['numpy', 'lazy', 'warm', 'ready', 4]],
  );
  t.true(Math.abs(json.changes[0]!.ratio - 1.4) < 0.03, String(json.changes[0]!.ratio));
  t.deepEqual(
    json.shifts.map((s) => s.run),
    [4],
  );
});

test('the text gives each change one line, and the shift once', async (t) => {
  const root = series({ shared: 1.15, moved: { cell: 'numpy lazy warm ready', extra: 1.4 } });
  const r = await runCli(['history', root], root);
  const lines = r.stdout.split('\n');
  t.is(lines.filter((l) => /^ {2}every cell ×1\.1\d \[/.test(l)).length, 1, r.stdout);
  t.is(lines.filter((l) => /^ {2}numpy lazy warm ready \+\d+% .* beyond the shared factor, between run 3 and run 4/.test(l)).length, 1, r.stdout);
});

test('attribution names a changed file of the sample stage and only counts the analysis files that changed with it (made-up data)', async (t) => {
  const analysis = (i: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: 47 }, (_, f) => [`harness/analysis/file-${f}.ts`, i >= 3 ? 'new' : 'old']));
  const root = series({
    shared: 1,
    moved: { cell: 'numpy lazy warm ready', extra: 1.4 },
    run: (i) => ({
      sampleKey: i >= 3 ? 'key-b' : 'key-a',
      sampleCode: { 'stages/sample.ts': 'c0de', 'harness/launch/launch.ts': i >= 3 ? 'new' : 'old' },
      analyzeCode: { 'stages/analyze.ts': i >= 3 ? 'new' : 'old', ...analysis(i) },
    }),
  });
  const { json } = await history([root], root);
  t.is(json.changes.length, 1);
  const named = json.changes[0]!.changed.filter((c) => c.kind === 'code').map((c) => c.key);
  t.deepEqual(named, ['harness/launch/launch.ts']);
  const text = await runCli(['history', root], root);
  t.regex(
    text.stdout,
    /changed: 1 code file of the sample stage: code harness\/launch\/launch\.ts \(old → new\); host: same; 49 files changed, 1 of them inputs of the sample stage/,
  );
  t.notRegex(
    text.stdout.split('\n').find((l) => l.includes('beyond the shared factor'))!,
    /harness\/analysis/,
  );
  const verbose = await runCli(['history', root, '--verbose'], root);
  t.regex(verbose.stdout, /not inputs of the sample stage: harness\/analysis\/file-0\.ts, .*stages\/analyze\.ts/);
});

test('a shift with only analysis code changed between same-key runs names no file as its cause, and says how many changed (made-up data)', async (t) => {
  const root = series({ shared: 1.15, run: (i) => ({ analyzeCode: { 'stages/analyze.ts': i >= 3 ? 'new' : 'old' } }) });
  const { json } = await history([root], root);
  t.is(json.shifts.length, 1);
  t.regex(json.shifts[0]!.cause, /^run effect: no input of the sample stage changed .*; host: same; 1 file changed, 0 of them inputs of the sample stage$/);
});

test('runs given twice, each archived run and again through the folder holding the archive, count once (made-up data)', async (t) => {
  const root = series({ shared: 1 });
  const each = readdirSync(join(root, 'runs'))
    .sort()
    .map((id) => join(root, 'runs', id));
  const r = await history([...each, root], root);
  t.is(r.json.runs.length, 6);
  t.is(r.stderr.match(/given twice .*: counted once/g)?.length, 6, r.stderr);
  t.deepEqual(
    r.json.runs.map((x) => x.id),
    each.map((f) => f.split('/').at(-1)),
  );
});

test('two runs of two sessions say what they cannot show instead of "no change reported" (made-up data)', async (t) => {
  const root = tempDir('benchgraph-drift-');
  for (let i = 0; i < 2; i++)
    fileMadeUpRun(root, join(root, 'runs'), { cells: { 'shell lazy cold ready': [300, 302] }, config: {}, time: `2026-11-1${i}T10:00:00.000Z` }, i + 1);
  const r = await runCli(['history', root], root);
  t.regex(r.stdout, /no cell change reported; 2 runs of 2 sessions cannot show any change: each side of a change needs 3 sessions/);
  t.notRegex(r.stdout, /^no change reported$/m);
  const flat = series({ shared: 1 });
  t.regex(
    (await runCli(['history', flat], flat)).stdout,
    /6 runs of 3 sessions cannot show a cell change smaller than ±\d+% or a shift of every cell smaller than ±\d+%/,
  );
});

test('a shared shift says the canary over the same runs beside it, in the text and in the JSON, and says so where runs have none (made-up data)', async (t) => {
  const root = series({ shared: 1.15, run: (i) => ({ canary: { cpu: i >= 3 ? 113 : 100, fs: i >= 3 ? 45.2 : 40 } }) });
  const { json } = await history([root], root);
  t.is(json.shifts.length, 1);
  const c = (json.shifts[0] as unknown as { canary: { ratio: number } }).canary;
  t.true(Math.abs(c.ratio - 1.13) < 1e-9, String(c.ratio));
  const text = (await runCli(['history', root], root)).stdout;
  t.regex(text, /^ {2}every cell ×1\.1\d \[1\.\d\d, 1\.\d\d\], canary ×1\.13 \(pieces ×1\.13–×1\.13\), between run 3 and run 4/m);
  const partly = series({ shared: 1.15, run: (i) => (i >= 3 ? { canary: { cpu: 113 } } : {}) });
  t.regex(
    (await runCli(['history', partly], partly)).stdout,
    /^ {2}every cell ×1\.1\d \[1\.\d\d, 1\.\d\d\], canary: no canary recorded in runs 1–3, between run 3 and run 4/m,
  );
});

test('history names a data folder that gained a journal as the cause of a change, in words, though the host changed too (made-up data)', async (t) => {
  const root = series({
    shared: 1,
    moved: { cell: 'numpy lazy warm ready', extra: 1.4 },
    run: (i) => ({
      sampleKey: 'same-sample-key',
      fingerprint:
        i >= 3
          ? { cpuModel: 'AMD EPYC', dataJournal: 'journal', dataMountOptions: 'rw,relatime,rw' }
          : { cpuModel: 'Intel(R) Xeon(R) Processor', dataJournal: 'no journal', dataMountOptions: 'rw,relatime,rw,discard' },
    }),
  });
  const { json } = await history([root], root);
  t.is(json.changes.length, 1);
  t.deepEqual(
    json.changes[0]!.changed.filter((c) => c.kind === 'host').map((c) => c.key),
    ['data folder', 'cpuModel'],
  );
  t.regex(
    (await runCli(['history', root], root)).stdout,
    /host: data folder \(ext4 without a journal → ext4 with a journal\), cpuModel \(Intel\(R\) Xeon\(R\) Processor → AMD EPYC\)/,
  );
});
