// Every experiment writes its launches to the one journal (a real DuckDB file)
// and publishes them as the one samples.csv format; reading that CSV back
// gives byte-identical statistics. Made-up launches: a test of our own logic.
import test from 'ava';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { analyzeCommits } from '../harness/commit/commit-analysis.js';
import { commitColumns, commitRowsOf, COMPRESSION_UNIT } from '../harness/commit/commit-columns.js';
import type { SampleColumn } from '../harness/db/sample-columns.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv } from '../harness/publish/samples-csv.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { madeUpEffectRow, madeUpEffectRows } from './helpers/effect-rows.js';
import type { CommitRow } from '../harness/commit/commit-columns.js';
import { tempDir } from './helpers/cli.js';

const BOOT = { resamples: 400, confidence: 0.95, seed: 'round-trip' };

/** The rows as the journal gives them back, and the same rows after samples.csv. */
async function throughJournalAndCsv(rows: readonly SampleRow[], extra: readonly SampleColumn[] = []): Promise<{ journal: SampleRow[]; csv: SampleRow[] }> {
  const dir = tempDir('bg-roundtrip-');
  try {
    const j = await SampleJournal.open(join(dir, 'samples.duckdb'), extra);
    for (const r of rows) await j.append(r);
    await j.close();
    const journal = await SampleJournal.readRows(join(dir, 'samples.duckdb'));
    return { journal, csv: parseSampleCsv(samplesCsv(journal, extra), 'samples.csv', extra) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('effect-table launches: samples.csv read back gives the same effect cell to the last digit', async (t) => {
  const row = madeUpEffectRow('made-up');
  const { journal, csv } = await throughJournalAndCsv(
    madeUpEffectRows(
      'made-up',
      { sessions: 3, rounds: 5 },
      (u) => 300 + 40 * u,
      (u) => 210 + (30 * u) / 3,
    ),
  );
  t.is(csv.length, 30);
  t.is(JSON.stringify(effectCell(row, csv, BOOT)), JSON.stringify(effectCell(row, journal, BOOT)));
});

test('commit-diff commits and compression launches: samples.csv read back gives the same analysis to the last digit', async (t) => {
  const random = seededRandom('commits');
  const rows: CommitRow[] = [];
  const cells = [
    { total_mb: 100, file_count: 100, change_bytes: 1024 },
    { total_mb: 450, file_count: 100, change_bytes: 1024 },
  ];
  for (let session = 1; session <= 3; session++)
    for (let round = 1; round <= 2; round++)
      for (const [i, dims] of cells.entries())
        for (const method of ['naive', 'native'])
          for (const state of ['initial', 'incremental']) {
            const cell = `total_mb=${dims.total_mb},file_count=${dims.file_count},change_bytes=${dims.change_bytes}`;
            rows.push({
              experiment: 'c',
              cohort: cell,
              path: method,
              state,
              phase: 'formal',
              round,
              order_in_round: method === 'naive' ? 0 : 1,
              launch_id: `${i}.${method}.${state}.f${round}.S${session}.a1`,
              session,
              host: 'h',
              ok: true,
              started_at: '2026-01-01T00:00:00Z',
              completion_ms: (method === 'naive' ? 3 : 1) * (100 + dims.total_mb) * (0.9 + 0.2 * random()),
              engine_cpu_ms: 10 + random(),
              disk_read_bytes: Math.round(1e6 * random()),
              layer_bytes: 4096,
              ...dims,
            });
          }
  rows.push({
    experiment: 'c',
    cohort: COMPRESSION_UNIT,
    path: 'gzip (pigz)',
    state: 'none',
    phase: 'formal',
    round: 1,
    order_in_round: 0,
    launch_id: 'compression.pigz.none.f1.S3.a1',
    session: 3,
    host: 'h',
    ok: true,
    started_at: '2026-01-01T00:00:00Z',
    completion_ms: 2590.5,
    layer_bytes: 300_100_000,
    compressed_bytes: 300_090_000,
    note: 'pigz, "default" level, one thread per CPU',
  });
  const { journal, csv } = await throughJournalAndCsv(rows, commitColumns);
  t.is(csv.length, rows.length);
  const analyse = (r: SampleRow[]) => {
    const { rows: commits, compression } = commitRowsOf(r);
    return JSON.stringify(analyzeCommits(commits, compression, BOOT));
  };
  t.is(analyse(csv), analyse(journal));
  t.is(JSON.parse(analyse(csv)).ratios[0].comparison.sessions, 3);
});
