// Our own report logic on made-up commits (no engine involved), asserted on
// the document model: the summary is the first table, the headline ratio
// with its interval is in the first 200 words, the main text is within 1,500
// words, no long sentence is said twice, every number of the summary is a
// row of the CSVs the report wrote, and the growth section holds both fits.
import test from 'ava';
import { analyzeCommits, type CommitRowData } from '../harness/commit/commit-analysis.js';
import { commitReportDocument, summaryHeader } from '../harness/commit/commit-report-document.js';
import type { CommitReportInputs } from '../harness/commit/commit-report-inputs.js';
import { commitsCsv, renderCommitCsvs } from '../harness/commit/commit-csvs.js';
import { firstWords, mainWordCount, repeatedSentences, proseSentences } from '../harness/document/document-text.js';
import type { Block, ReportDocument, Table } from '../harness/document/document-model.js';
import { renderMarkdown } from '../harness/document/render-markdown.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { cellId, commitRow } from './helpers/commit-rows.js';

const dims = (total_mb: number, file_count: number, change_bytes = 1024) => ({ total_mb, file_count, change_bytes });
const cells = [dims(100, 100), dims(450, 100), dims(2000, 100), dims(100, 1000), dims(100, 10000), dims(100, 100000), dims(100, 100, 1048576)];

/** Made up: naive incremental = 480 ms + 20 µs per file, native flat; initial about equal on both and linear in the bytes. */
function madeUpRows(): CommitRowData[] {
  const out: CommitRowData[] = [];
  for (const session of [1, 2, 3])
    for (const round of [1, 2])
      for (const d of cells) {
        const wobble = 1 + 0.01 * (session - 2) + 0.005 * round;
        const n = d.file_count;
        const add = (method: string, state: string, wallMs: number, cpuMs: number): void => {
          out.push({ ...commitRow(d, method, state, round, wallMs * wobble, 'formal', session), engineCpuMs: cpuMs * wobble, layerBytes: d.total_mb * 1e6 });
        };
        add('naive', 'incremental', 480 + 0.02 * n, 300);
        add('native', 'incremental', 65, 65);
        add('naive', 'initial', 300 + 4.6 * d.total_mb + 0.09 * n, 4000);
        add('native', 'initial', (300 + 4.6 * d.total_mb + 0.09 * n) * (session === 2 ? 1.02 : 0.99), 4000);
      }
  out.push({ ...commitRow(dims(100, 100), 'naive', 'incremental', 1, 1e9, 'warmup', 1) });
  return out;
}

function madeUp(): { doc: ReportDocument; inp: CommitReportInputs } {
  const rows = madeUpRows();
  const analysis = analyzeCommits(rows, [], { resamples: 300, confidence: 0.95, seed: 'doc' });
  const inp: CommitReportInputs = {
    experiment: { name: 'made-up', question: 'How long does docker commit take with each diff?' },
    pipelineFileName: 'made-up.yaml',
    analysis,
    rows,
    checks: cells.map((d) => ({ cell: cellId(d), state: 'incremental', entries: 2, equal: true, differences: [] })),
    session: { sessions: 3, rounds: 2, warmupRounds: 1, cpus: 2, host: 'made-up-host', startedAt: '2026-12-01T10:00:00Z', order: 'balanced', seed: 's' },
    pins: null,
    stages: [],
    samplesSha256: null,
    notes: ['Measured on a quiet machine (made up).'],
  };
  return { doc: commitReportDocument(inp, []), inp };
}

const tables = (blocks: readonly Block[]): Table[] => blocks.flatMap((b) => (b.kind === 'table' ? [b] : b.kind === 'section' ? tables(b.blocks) : []));

test('made-up commits: the summary is the first table, one row per state at the largest base', (t) => {
  const { doc } = madeUp();
  const first = tables([...doc.opening, ...doc.sections])[0]!;
  t.true(doc.opening.includes(first), 'the first table is in the opening');
  t.deepEqual(first.header, summaryHeader);
  t.deepEqual(
    first.rows.map((r) => [r[0], r[1]]),
    [
      ['initial', '2000 MB in 100 files, 1 KB change'],
      ['incremental', '2000 MB in 100 files, 1 KB change'],
    ],
  );
  t.is(first.rows[1]![5], 'detected: naive slower');
  t.is(first.rows[0]![5], 'undecided: interval holds 1');
});

test('made-up commits: the headline ratio with its interval is in the first 200 words; the main text is within 1,500 words', (t) => {
  const { doc } = madeUp();
  const headline = tables(doc.opening)[0]!.rows.find((r) => r[0] === 'incremental')![4]!;
  t.regex(headline, /^\d+\.\d\d× \[\d+\.\d\d, \d+\.\d\d\]$/);
  t.true(firstWords(doc, 200).includes(headline), headline);
  const words = mainWordCount(doc);
  t.log(`main text: ${words} words`);
  t.true(words <= 1500, `${words} words`);
  t.deepEqual(repeatedSentences(doc), []);
  const opening = doc.opening.filter((b) => b.kind === 'paragraph').slice(-1)[0]!;
  t.true(proseSentences({ title: '', opening: [opening], sections: [], appendix: [] }).length <= 5);
});

test('made-up commits: every number of the summary table equals a row of ratios.csv as the report wrote it', (t) => {
  const { doc, inp } = madeUp();
  const ratios = parseCsvTable(renderCommitCsvs(inp.analysis).get('ratios.csv')!).rows;
  const summary = tables(doc.opening)[0]!;
  const seconds = (s: string): number => (s.endsWith(' ms') ? Number(s.slice(0, -3)) : Number(s.slice(0, -2)) * 1000);
  for (const r of summary.rows) {
    const m = /^(\d+) MB in (\d+) files/.exec(r[1]!)!;
    const row = ratios.find((x) => x['state'] === r[0] && x['total_mb'] === m[1] && x['file_count'] === m[2] && x['change_bytes'] === '1024')!;
    t.truthy(row, r.join(' | '));
    for (const [col, field] of [
      [2, 'naive_p50_ms'],
      [3, 'native_p50_ms'],
    ] as const) {
      const shown = seconds(r[col]!);
      const tolerance = r[col]!.endsWith(' ms') ? 0.5 : 5;
      t.true(Math.abs(shown - Number(row[field])) <= tolerance, `${r[col]} vs ${row[field]}`);
    }
    const q = /^(\d+\.\d\d)× \[(\d+\.\d\d), (\d+\.\d\d)\]$/.exec(r[4]!)!;
    t.deepEqual([q[1], q[2], q[3]], [Number(row['ratio']).toFixed(2), Number(row['low']).toFixed(2), Number(row['high']).toFixed(2)]);
    t.is(r[5]!.startsWith('detected'), row['detected'] === 'true');
  }
});

test('made-up commits: commits.csv holds one row per formal commit, and its wall times give the P50 of ratios.csv', (t) => {
  const { inp } = madeUp();
  const commits = parseCsvTable(commitsCsv(inp.rows)).rows;
  t.is(commits.length, inp.rows.filter((r) => r.phase === 'formal').length);
  const naive = commits
    .filter((r) => r['method'] === 'naive' && r['state'] === 'incremental' && r['total_mb'] === '2000')
    .map((r) => Number(r['wall_ms']))
    .sort((p, q) => p - q);
  t.is(naive.length, 6, '3 sessions × 2 rounds');
  const ratios = parseCsvTable(renderCommitCsvs(inp.analysis).get('ratios.csv')!).rows;
  const row = ratios.find((x) => x['state'] === 'incremental' && x['total_mb'] === '2000')!;
  t.true(Math.abs((naive[2]! + naive[3]!) / 2 - Number(row['naive_p50_ms'])) < 1e-6);
});

test('made-up commits: the appendix "Growth fits, in full" gives floor + cost, then the exponent and the better fit', (t) => {
  const { doc } = madeUp();
  // the main text keeps the plots and points to the fits (its word budget); the appendix has both tables
  const [fits, power] = tables(doc.appendix.find((s) => s.title === 'Growth fits, in full')!.blocks);
  const row = fits!.rows.find((r) => r[0] === 'files' && r[1] === 'naive' && r[2] === 'incremental')!;
  t.regex(row[3]!, /^4\d\d ms \+ (19|20|21)\.\d µs\/file/, row[3]);
  const twin = power!.rows.find((r) => r[0] === 'files' && r[1] === 'naive' && r[2] === 'incremental')!;
  t.true(twin[4]!.startsWith('floor + cost'), twin[4]);
  const md = renderMarkdown(doc);
  t.true(md.includes('is an artifact of fitting a power law to a cost with a floor'));
  const source = doc.sections.find((s) => s.title.startsWith("The source's claims"))!;
  t.true(JSON.stringify(source).includes('O(n²) in the number of entries'));
  t.true(JSON.stringify(source).includes('a drop of 78%'), 'the engine CPU drop, 1 − 65/300');
});

test('made-up commits: with 3 sessions, the many-file initial commits are judged by both intervals and k of K', (t) => {
  const { doc } = madeUp();
  const s = doc.sections.find((x) => x.title.startsWith('Many-file'))!;
  const table = tables(s.blocks)[0]!;
  // the base and change every row shares are said once, in the header
  t.is(table.header[0], 'files (100 MB, 1 KB change)');
  const rows = table.rows;
  t.deepEqual(
    rows.map((r) => r[0]),
    ['10000', '100000'],
  );
  for (const r of rows) t.regex(r[5]!, /(undecided|native faster|native slower).*\d of 3 sessions/);
});

test('made-up commits: the provenance names the benchgraph commit and says when its tree was dirty', (t) => {
  const { inp } = madeUp();
  const text = (commit: CommitReportInputs['commit']): string => renderMarkdown(commitReportDocument({ ...inp, commit }, []));
  t.true(text({ sha: 'abc123', dirty: true }).includes('benchgraph commit `abc123` with uncommitted changes (dirty).'));
  t.true(text({ sha: 'abc123', dirty: false }).includes('benchgraph commit `abc123` (clean).'));
});

test('made-up commits of a tiny sweep (one session, two bases): the report still opens with the summary and leaves out what it cannot say', (t) => {
  const few = [dims(20, 10), dims(40, 10)];
  const rows = [1, 2].flatMap((round) =>
    few.flatMap((d) => [
      commitRow(d, 'naive', 'incremental', round, 300 + round),
      commitRow(d, 'native', 'incremental', round, 60 + round),
      commitRow(d, 'naive', 'initial', round, 200 + d.total_mb + round),
      commitRow(d, 'native', 'initial', round, 200 + d.total_mb + 2 * round),
    ]),
  );
  const analysis = analyzeCommits(rows, [], { resamples: 100, confidence: 0.95, seed: 'tiny' });
  const { inp } = madeUp();
  const doc = commitReportDocument({ ...inp, analysis, rows, checks: [], session: { sessions: 1, rounds: 2 } }, []);
  const summary = tables(doc.opening)[0]!;
  t.deepEqual(
    summary.rows.map((r) => r[1]),
    ['40 MB in 10 files, 1 KB change', '40 MB in 10 files, 1 KB change'],
  );
  t.false(
    doc.sections.some((s) => s.title.startsWith('Many-file')),
    'no many-file cells, no section',
  );
  t.true(mainWordCount(doc) <= 1500);
});
