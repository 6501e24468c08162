// Figures that docs/ and a report folder's README quote from a run are held to
// that run's CSVs (issue 33): the carryover probe's tables are recomputed from
// the CSVs they link, and each figure STATISTICS.md quotes from a published or
// archived run is formatted from the CSV row it names. A republished report
// that changes such a figure fails here until the text follows it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';

const parseCsv = (text: string): Record<string, string>[] => parseCsvTable(text).rows;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

test("every table of the carryover probe's README is what its linked CSV gives", (t) => {
  const dir = join('reports', 'carryover-probe');
  const text = readFileSync(join(dir, 'README.md'), 'utf8');
  const tables = [...text.matchAll(/\(\[([\w.-]+\.csv)\]\(\1\)\):\n\n\|[^\n]*\n\|[^\n]*\n((?:\|[^\n]*\n)+)/g)];
  t.true(tables.length >= 7, `${tables.length} tables`);
  for (const [, file, body] of tables) {
    const rows = parseCsv(readFileSync(join(dir, file!), 'utf8'));
    for (const line of body!.trim().split('\n')) {
      const cells = line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
      const of = rows.filter((r) => r['condition'] === cells[0]);
      const col = (k: string): number[] => of.map((r) => Number(r[k]));
      // The table rounds to whole ms (either way at an exact half), so each figure must lie within 0.5 of the CSV's.
      const numbers = (cell: string): number[] => [...cell.matchAll(/[\d,]+(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));
      const expected = [
        [of.length],
        [median(col('completion_ms'))],
        [median(col('sys_cpu_ms')), Math.min(...col('sys_cpu_ms')), Math.max(...col('sys_cpu_ms'))],
        [median(col('user_cpu_ms'))],
      ];
      t.is(cells.length, 5, line);
      expected.forEach((want, i) => {
        const got = numbers(cells[i + 1]!);
        t.is(got.length, want.length, `${file} ${cells[0]} column ${i + 2}`);
        want.forEach((w, j) => t.true(Math.abs(got[j]! - w) <= 0.5, `${file} ${cells[0]} column ${i + 2}: ${got[j]} vs ${w}`));
      });
    }
  }
});

interface Quote {
  /** The text as the document has it, white space folded. */
  text: (row: Record<string, string>) => string;
  csv: string;
  where: Record<string, string>;
}

const f1 = (v: string): string => Number(v).toFixed(1);
const f0 = (v: string): string => Number(v).toFixed(0);

const statisticsQuotes: Quote[] = [
  {
    // the run the paragraph names, archived: a later republish does not move its figures
    csv: 'reports/lazy-startup/runs/2026-12-07-5f8e0c3d58e6/differences.csv',
    where: { kind: 'median_difference', cohort: 'shell', state: 'cold', metric: 'ready', a: 'gvisor-lazy', b: 'lazy' },
    text: (r) => `Shell cold gvisor-lazy − lazy, ${f1(r['value']!)} ms [${f1(r['low']!)}, ${f1(r['high']!)}]`,
  },
  {
    csv: 'reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/statistics.csv',
    where: { cohort: 'shell', path: 'lazy', state: 'cold', metric: 'ready' },
    text: (r) => `Ready P50 of the quiet run published then (\`runs/2026-12-01-25bf80d30cc6\`), ${f0(r['p50']!)} ms`,
  },
];

test('each figure STATISTICS.md quotes from a run is the figure of the CSV row it names', (t) => {
  const doc = readFileSync(join('docs', 'STATISTICS.md'), 'utf8').replace(/\s+/g, ' ');
  for (const q of statisticsQuotes) {
    const rows = parseCsv(readFileSync(q.csv, 'utf8')).filter((r) => Object.entries(q.where).every(([k, v]) => r[k] === v));
    t.is(rows.length, 1, `${q.csv} ${JSON.stringify(q.where)}`);
    const text = q.text(rows[0]!);
    t.true(doc.includes(text), `STATISTICS.md should say "${text}" (${q.csv})`);
  }
});

test("every line count README.md gives for a file, as (`path`, N lines), is that file's", (t) => {
  const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
  const claims = [...readme.matchAll(/\(`([\w./-]+\.\w+)`, (\d+) lines\)/g)];
  for (const [, file, n] of claims) {
    const lines = readFileSync(file!, 'utf8').split('\n').length - 1;
    t.is(lines, Number(n), `README says ${file} has ${n} lines; it has ${lines}`);
  }
  t.true(claims.length >= 2, "the restore sweep's adapter and stage counts are found");
});

test("STATISTICS.md's A/A table on real launches is the tally of reports/calibration's per-run CSVs", (t) => {
  const doc = readFileSync(join('docs', 'STATISTICS.md'), 'utf8');
  const rows: [string, string, string][] = [
    ['aa-echo-adaptive.csv', 'warm', '| plain shell, warm (`aa-echo.yaml`) |'],
    ['aa-lazy-adaptive.csv', 'cold', '| lazy shell, cold (`aa-lazy.yaml`) |'],
    ['aa-lazy-adaptive.csv', 'warm', '| lazy shell, warm (`aa-lazy.yaml`) |'],
  ];
  for (const [file, state, lead] of rows) {
    const all = parseCsv(readFileSync(join('reports', 'calibration', file), 'utf8')).filter((r) => r['state'] === state);
    const runs = new Set(all.map((r) => r['run'])).size;
    const cell = (metric: string): string[] => {
      const of = all.filter((r) => r['metric'] === metric);
      const fp = of.filter((r) => r['verdict'] === 'lower' || r['verdict'] === 'higher').length;
      const eq = of.filter((r) => r['verdict'] === 'equivalent').length;
      const ci = clopperPearson(fp, of.length);
      const pct = (x: number): string => (100 * x).toFixed(1);
      return [`${fp}/${of.length} = ${pct(fp / of.length)}% [${pct(ci.low)}, ${pct(ci.high)}]`, `${pct(eq / of.length)}%`];
    };
    const line = doc.split('\n').find((l) => l.startsWith(lead));
    t.truthy(line, lead);
    const cells = line!.split('|').map((c) => c.trim());
    t.is(cells[2], String(runs), `${file} ${state}: runs`);
    t.deepEqual(cells.slice(4, 8), [...cell('ready'), ...cell('completion')], `${file} ${state}`);
  }
});
