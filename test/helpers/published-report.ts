// Reading a published report.md as a reader does (for the tests that hold
// the committed reports to their budgets): the main text is everything
// before the first "## Appendix" heading; words are counted as `wc -w`
// counts them (every whitespace-separated token, table bars and link targets
// included), so a budget holds for whoever counts; sentences are split after . ! ? before
// a capital or a digit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../harness/process/project-root.js';
import { parseCsvTable } from '../../harness/compare/csv-table.js';

export function publishedFile(experiment: string, name: string): string {
  return readFileSync(join(projectRoot(), 'reports', experiment, name), 'utf8');
}

export function publishedCsv(experiment: string, name: string): Record<string, string>[] {
  return parseCsvTable(publishedFile(experiment, name)).rows;
}

const plain = (s: string): string =>
  s
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1');

/** The Markdown before the appendix. */
export function mainMarkdown(md: string): string {
  const i = md.search(/^## Appendix/m);
  return i < 0 ? md : md.slice(0, i);
}

export function markdownWords(md: string): number {
  return md.split(/\s+/).filter(Boolean).length;
}

/** The first table's rows as arrays of cells (header first). */
export function firstTable(md: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (let i = start; i >= 0 && i < lines.length && lines[i]!.startsWith('|'); i++) {
    if (/^\|(-+\|)+$/.test(lines[i]!.trim())) continue;
    rows.push(
      lines[i]!.trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\\\|/g, '|')),
    );
  }
  return rows;
}

/** The words before the first table plus the table itself, as text: what the first screen shows. */
export function wordsBefore(md: string, n: number): string {
  return plain(md).split(/\s+/).filter(Boolean).slice(0, n).join(' ');
}

/** Prose sentences longer than maxWords words that appear twice or more (tables, headings and code excluded). */
export function repeatedMarkdownSentences(md: string, maxWords = 12): string[] {
  const prose = md
    .split('\n\n')
    .filter((p) => !p.startsWith('|') && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('!['))
    .flatMap((p) => p.split('\n').map((l) => plain(l.replace(/^- /, ''))))
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z0-9*"“(])/))
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length > maxWords);
  const counts = new Map<string, number>();
  for (const s of prose) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([s]) => s);
}

/**
 * Checks every "a − b, ms" column of a summary table against the
 * differences.csv and statistics.csv rows it should come from: each cell's
 * difference, interval ends and P50 ratio, rounded as the report rounds them.
 * Returns the cells checked and the mismatches, as text.
 */
export function summaryAgainstCsv(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  diffs: readonly Record<string, string>[],
  stats: readonly Record<string, string>[],
): { checked: number; mismatches: string[] } {
  let checked = 0;
  const mismatches: string[] = [];
  // The summary's cells, whichever way it is laid out: one row per comparison and a column per cohort and state
  // (header "Ready, a − b: …", "shell cold", …), or, in reports published before, a row per cohort and state and a
  // column per comparison ("docker − lazy, ms …").
  const entries: { cohort: string; state: string; a: string; b: string; text: string }[] = [];
  if (/^Ready, a − b/.test(header[0] ?? '')) {
    for (const r of rows) {
      const pair = /^(\S+) − (\S+)/.exec(r[0] ?? '');
      if (!pair) continue;
      header.forEach((h, i) => {
        const [cohort, state] = h.split(' ');
        if (i > 0 && cohort && state) entries.push({ cohort, state, a: pair[1]!, b: pair[2]!, text: r[i]! });
      });
    }
  } else {
    header.forEach((h, i) => {
      const pair = /^(\S+) − (\S+)(?: \(runtime held fixed[^)]*\))?, ms/.exec(h);
      if (pair) for (const r of rows) entries.push({ cohort: r[0]!, state: r[1]!, a: pair[1]!, b: pair[2]!, text: r[i]! });
    });
  }
  for (const e of entries) {
    {
      // endpoints to the digits their seed spread supports, with "]±N" where even whole ms move (report/interval-text.ts)
      const m =
        /^(-?\d+\.\d) \[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\](?:±\d+(?:\.\d)?)?(?: rerun \[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\])?(?: hosts -?\d+\.\d to -?\d+\.\d)?(?:, ×(\d+\.\d+))?/.exec(
          e.text,
        );
      if (!m) continue;
      const where = `${e.cohort} ${e.state} ${e.a} − ${e.b}`;
      const pair = [where, e.a, e.b];
      const r = [e.cohort, e.state];
      const row = diffs.find(
        (x) =>
          x['kind'] === 'median_difference' &&
          x['cohort'] === r[0] &&
          x['state'] === r[1] &&
          x['metric'] === 'ready' &&
          x['a'] === pair[1] &&
          x['b'] === pair[2],
      );
      if (!row) {
        mismatches.push(`${where}: no differences.csv row`);
        continue;
      }
      const want = [Number(row['value']).toFixed(1), Number(row['low']).toFixed(1), Number(row['high']).toFixed(1)];
      // the CSV keeps 3 decimals and the report prints its digits from the unrounded figure: -14.7495 is -14.7 there and
      // -14.750 here; so a printed figure is within half a unit of its last digit of the CSV's (plus the CSV's own rounding)
      const halfUnit = (x: string): number => 0.5 * 10 ** -(x.split('.')[1]?.length ?? 0) + 5e-4 + 1e-6;
      const csv = [row['value'], row['low'], row['high']].map(Number);
      if ([m[1], m[2], m[3]].some((x, i) => Math.abs(Number(x) - csv[i]!) > halfUnit(x!)))
        mismatches.push(`${where}: ${m.slice(1, 4).join(' ')} against ${want.join(' ')}`);
      if (m[4]) {
        const rerun = [Number(row['rerun_low']), Number(row['rerun_high'])];
        if ([m[4], m[5]].some((x, i) => Math.abs(Number(x) - rerun[i]!) > halfUnit(x!)))
          mismatches.push(`${where}: rerun ${m[4]} ${m[5]} against ${rerun.join(' ')}`);
      }
      if (m[6]) {
        const p50 = (path: string): number =>
          Number(stats.find((x) => x['cohort'] === r[0] && x['state'] === r[1] && x['metric'] === 'ready' && x['path'] === path)?.['p50']);
        // statistics.csv gives P50s to 3 decimals, the report divides the full ones: the shown ratio must be a
        // rounding of some ratio the CSV's P50s allow (a ratio at a rounding boundary, 4.76498 against 4.76503, may go either way).
        const [a, b] = [p50(pair[1]!), p50(pair[2]!)];
        const ratio = a / b;
        const digits = ratio >= 10 ? 1 : 2;
        const [lo, hi] = [(a - 5e-4) / (b + 5e-4), (a + 5e-4) / (b - 5e-4)];
        const roundings = new Set([lo, ratio, hi].map((x) => x.toFixed(digits)));
        if (!roundings.has(m[6])) mismatches.push(`${where}: ratio ${m[6]} against ${ratio}`);
      }
      checked++;
    }
  }
  return { checked, mismatches };
}
