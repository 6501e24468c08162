// A three-session import where the third session reverses a difference,
// through the real import-samples, analyze and report stages: the two-level
// interval crosses 0 while a pooled one-level interval does not, and the
// report says the direction held in 2 of 3 sessions.
import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairedRoundBootstrap } from '../harness/stats/paired-bootstrap.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { sampleColumns } from '../harness/db/sample-columns.js';
import { runCli } from './helpers/cli.js';

type Levels = Record<number, { a: number; b: number }>;
const reversing: Levels = { 1: { a: 1000, b: 950 }, 2: { a: 1010, b: 955 }, 3: { a: 900, b: 980 } };

function sessionsCsv(level: Levels, seed: string): string {
  const random = seededRandom(seed);
  const cols = sampleColumns.map((c) => c.name);
  const lines = [cols.join(',')];
  for (const session of [1, 2, 3]) {
    for (let round = 1; round <= 20; round++) {
      for (const path of ['a', 'b'] as const) {
        const v = level[session]![path] + 10 * random();
        const row: Record<string, string | number> = {
          experiment: 'rev',
          cohort: 'c',
          path,
          state: 'cold',
          phase: 'formal',
          round,
          order_in_round: path === 'a' ? 0 : 1,
          launch_id: `c.${path}.cold.f${round}.S${session}.a1`,
          session,
          host: `h${session}`,
          ok: 'true',
          started_at: '2026-11-30T00:00:00Z',
          ready_ms: v,
          completion_ms: v + 1,
        };
        lines.push(cols.map((c) => String(row[c] ?? '')).join(','));
      }
    }
  }
  return lines.join('\n') + '\n';
}

const PIPELINE = `experiment: { name: rev, question: Does a reverse session show? }
analysis:
  bootstrap: { resamples: 2000, seed: rev }
  comparisons: [{ a: a, b: b }]
stages:
  - { id: import, uses: import-samples, with: { file: samples.csv } }
  - { id: analyze, uses: analyze, needs: [import] }
  - { id: report, uses: report, needs: [analyze, import] }
`;

test('a session that reverses a difference makes the two-level interval cross 0, unlike a pooled one, and the report says 2 of 3 sessions', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-rev-'));
  try {
    await writeFile(join(dir, 'samples.csv'), sessionsCsv(reversing, 'reversal-report'));
    await writeFile(join(dir, 'pipeline.yaml'), PIPELINE);
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr);
    const report = await readFile(join(dir, 'reports', 'rev', 'report.md'), 'utf8');
    t.regex(
      report,
      /\| c \| cold \| ready \| a‡? − b‡? \| [^|]+ \| \[-[\d.]+, [\d.]+\] \| \[-[\d.]+, [\d.]+\] \| 60 of 60 \| 2 of 3 \| [^|]+ \| not detected \|/,
    );
    const diffs = (await readFile(join(dir, 'reports', 'rev', 'differences.csv'), 'utf8')).trim().split('\n');
    const header = diffs[0]!.split(',');
    const ready = diffs.find((l) => l.includes(',c,cold,ready,a,b,'))!.split(',');
    t.is(ready[header.indexOf('sessions')], '3');
    t.is(ready[header.indexOf('sessions_same_direction')], '2');
    t.is(ready[header.indexOf('detected')], 'false');
    // The same rows pooled into one session: the one-level interval excludes 0.
    const rows = (await readFile(join(dir, 'samples.csv'), 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const col = (n: string): number => sampleColumns.findIndex((c) => c.name === n);
    const rounds = new Map<string, { a: number[]; b: number[] }>();
    for (const row of rows) {
      const k = `${row[col('session')]}/${row[col('round')]}`;
      const e = rounds.get(k) ?? { a: [], b: [] };
      e[row[col('path')] as 'a' | 'b'].push(Number(row[col('ready_ms')]));
      rounds.set(k, e);
    }
    const pooled = pairedRoundBootstrap([...rounds.values()], { resamples: 2000, confidence: 0.95, seed: 'pooled' });
    t.false(pooled.containsZero, `pooled [${pooled.low}, ${pooled.high}]`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sessions that agree in direction but not in size: the two-level interval excludes 0, the between-session one does not, and with every session excluding 0 alone the report says the direction holds and the size is uncertain', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-size-'));
  try {
    // a - b is about +5, +20 and +60 ms in the three sessions
    const disagreeing: Levels = { 1: { a: 1005, b: 1000 }, 2: { a: 1020, b: 1000 }, 3: { a: 1060, b: 1000 } };
    await writeFile(join(dir, 'samples.csv'), sessionsCsv(disagreeing, 'size-report'));
    await writeFile(join(dir, 'pipeline.yaml'), PIPELINE);
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr);
    const diffs = (await readFile(join(dir, 'reports', 'rev', 'differences.csv'), 'utf8')).trim().split('\n');
    const header = diffs[0]!.split(',');
    const ready = diffs.find((l) => l.includes(',c,cold,ready,a,b,'))!.split(',');
    const at = (name: string): number => Number(ready[header.indexOf(name)]);
    t.true(at('low') > 0, `two-level [${at('low')}, ${at('high')}] excludes 0`);
    t.true(at('session_low') < 0 && at('session_high') > 0, `between sessions [${at('session_low')}, ${at('session_high')}] contains 0`);
    t.is(ready[header.indexOf('sessions_same_direction')], '3');
    t.is(ready[header.indexOf('detected')], 'false');
    const report = await readFile(join(dir, 'reports', 'rev', 'report.md'), 'utf8');
    t.regex(
      report,
      /\| c \| cold \| ready \| a‡? − b‡? \| [^|]+ \| \[[\d.]+, [\d.]+\] \| \[-[\d.]+, [\d.]+\] \| 60 of 60 \| 3 of 3 \| [^|]+ \| size uncertain \|/,
    );
    t.regex(report, /^\| a − b \| [\d.]+ \[[\d.]+, [\d.]+\], ×[\d.]+, size uncertain(; ‡ split: [^|]+)? \|/m);
    t.regex(
      report,
      /so they are not called detected; "size uncertain" where every session alone excludes 0 on the same side, so the direction holds: c cold ready a − b \(size uncertain; per session [\d.]+, [\d.]+, [\d.]+ ms/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
