// Pure: the figures of a published report recomputed from its own
// samples.csv (issue 44 item 6), so that `pipeline audit` in a fresh clone
// checks more than digests: that every cell's count and P50 and every
// difference's estimate, paired rounds and session directions follow from
// the launches the report publishes. It is its own small implementation (a
// sort and the type-7 quantile), not the analysis's: a figure the analysis
// got wrong, or one edited with its lock, differs here.
//
// What it recomputes, per published folder:
//   statistics.csv: launches, failures, n, p50, p95, min, max (the columns
//     the file has), per cohort, path, state and metric, from the formal
//     launches (ok ones for the values);
//   differences.csv (kinds median_difference and median_ratio): value, n
//     (paired rounds), sessions and sessions_same_direction, over the rounds
//     where both paths have a value, as the analysis pairs them.
// What it does not: intervals and verdicts (a seeded resampling, re-derived by
// each experiment's reanalysis test), and rows of other kinds.
import { parseCsvTable } from '../compare/csv-table.js';

export interface FigureMismatch {
  /** statistics.csv or differences.csv. */
  file: string;
  /** The row, named by its key columns. */
  row: string;
  column: string;
  published: string;
  recomputed: string;
}

export interface RecomputedFigures {
  /** Cells of statistics.csv recomputed. */
  cells: number;
  /** Rows of differences.csv recomputed. */
  differences: number;
  /** Figures compared (one per column per row). */
  figures: number;
  /** Rows not recomputed: another kind, or a cell samples.csv does not hold. */
  skipped: number;
  mismatches: FigureMismatch[];
}

interface Launch {
  session: string;
  round: string;
  ok: boolean;
  row: Record<string, string>;
}

/** Type-7 quantile of sorted values (R's default, NumPy's linear). */
function quantileSorted(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

const median = (values: readonly number[]): number =>
  quantileSorted(
    [...values].sort((x, y) => x - y),
    0.5,
  );

/** The samples.csv column a metric reads: the metric's own column, its `_ms` column, or `value` (an experiment's one measure). */
function columnOf(metric: string, header: readonly string[]): string {
  if (header.includes(metric)) return metric;
  if (header.includes(`${metric}_ms`)) return `${metric}_ms`;
  return 'value';
}

function valueOf(l: Launch, column: string): number | null {
  const text = l.row[column] ?? '';
  if (!l.ok || text === '') return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

/** Whether a recomputed number prints as the published text, to the digits printed (half a unit of its last digit). */
function agrees(published: string, recomputed: number): boolean {
  const p = Number(published);
  if (!Number.isFinite(p)) return false;
  const decimals = /\.(\d+)$/.exec(published)?.[1]?.length ?? 0;
  return Math.abs(p - recomputed) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-12;
}

const shown = (x: number): string => String(Number(x.toPrecision(10)));

export function recomputeFigures(files: { samples: string; statistics: string; differences: string | null }): RecomputedFigures {
  const samples = parseCsvTable(files.samples);
  const byCell = new Map<string, Launch[]>();
  for (const r of samples.rows) {
    if (r['phase'] !== 'formal') continue;
    const k = [r['cohort'], r['path'], r['state']].join('\u0000');
    (byCell.get(k) ?? byCell.set(k, []).get(k)!).push({ session: r['session'] ?? '', round: r['round'] ?? '', ok: r['ok'] === 'true', row: r });
  }
  const out: RecomputedFigures = { cells: 0, differences: 0, figures: 0, skipped: 0, mismatches: [] };
  const check = (file: string, row: string, column: string, published: string | undefined, recomputed: number): void => {
    if (published === undefined || published === '') return;
    out.figures++;
    if (!agrees(published, recomputed)) out.mismatches.push({ file, row, column, published, recomputed: shown(recomputed) });
  };

  for (const r of parseCsvTable(files.statistics).rows) {
    const launches = byCell.get([r['cohort'], r['path'], r['state']].join('\u0000'));
    const row = `${r['cohort']} ${r['path']} ${r['state']} ${r['metric']}`;
    if (!launches?.length || !r['metric']) {
      out.skipped++;
      continue;
    }
    const column = columnOf(r['metric'], samples.header);
    const values = launches
      .map((l) => valueOf(l, column))
      .filter((v): v is number => v !== null)
      .sort((x, y) => x - y);
    out.cells++;
    check('statistics.csv', row, 'launches', r['launches'], launches.length);
    check('statistics.csv', row, 'failures', r['failures'], launches.filter((l) => !l.ok).length);
    check('statistics.csv', row, 'n', r['n'], values.length);
    if (!values.length) continue;
    check('statistics.csv', row, 'p50', r['p50'], quantileSorted(values, 0.5));
    check('statistics.csv', row, 'p95', r['p95'], quantileSorted(values, 0.95));
    check('statistics.csv', row, 'min', r['min'], values[0]!);
    check('statistics.csv', row, 'max', r['max'], values[values.length - 1]!);
  }

  for (const r of files.differences === null ? [] : parseCsvTable(files.differences).rows) {
    const ratio = r['kind'] === 'median_ratio';
    if (r['kind'] !== 'median_difference' && !ratio) {
      out.skipped++;
      continue;
    }
    const row = `${r['cohort']} ${r['state']} ${r['metric']}: ${r['a']} − ${r['b']}`;
    const [a, b] = [r['a'], r['b']].map((p) => byCell.get([r['cohort'], p, r['state']].join('\u0000')) ?? []);
    const column = columnOf(r['metric'] ?? '', samples.header);
    // the analysis pairs by round: only rounds where both paths have a value count
    const rounds = (ls: readonly Launch[]): Set<string> => new Set(ls.filter((l) => valueOf(l, column) !== null).map((l) => `${l.session}|${l.round}`));
    const ra = rounds(a!);
    const paired = new Set([...rounds(b!)].filter((k) => ra.has(k)));
    if (!paired.size) {
      out.skipped++;
      continue;
    }
    const valuesIn = (ls: readonly Launch[], session: string | null): number[] =>
      ls
        .filter((l) => paired.has(`${l.session}|${l.round}`) && (session === null || l.session === session))
        .map((l) => valueOf(l, column))
        .filter((v): v is number => v !== null);
    const estimate = (session: string | null): number => {
      const [ma, mb] = [median(valuesIn(a!, session)), median(valuesIn(b!, session))];
      return ratio ? ma / mb : ma - mb;
    };
    const nullValue = ratio ? 1 : 0;
    const value = estimate(null);
    const sessions = [...new Set([...paired].map((k) => k.split('|')[0]!))];
    const same = sessions.filter((s) => Math.sign(estimate(s) - nullValue) === Math.sign(value - nullValue)).length;
    out.differences++;
    check('differences.csv', row, 'value', r['value'], value);
    check('differences.csv', row, 'n', r['n'], paired.size);
    check('differences.csv', row, 'sessions', r['sessions'], sessions.length);
    check('differences.csv', row, 'sessions_same_direction', r['sessions_same_direction'], same);
  }
  return out;
}
