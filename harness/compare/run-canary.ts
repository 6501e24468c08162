// The host canary of a run as `pipeline compare` and `pipeline history` read
// it: run.json's `canary` (harness/history/published-run.ts, from the analyze
// stage's analysis.json), of the folder itself or of the archived run of a
// published folder; and the canary's ratio between two groups of runs, said
// beside the factor every cell shares ("every cell ×1.12 [1.10, 1.15], canary
// ×1.11"), so a shared shift can be read against the host's own speed.
// A run whose run.json has no canary (commit-diff and sandbox-effects: their
// analyses keep none; or archived before run.json kept it, 2026-12-04) has it
// from the canary launches of its samples.csv when they are there (phase
// `canary`), computed as the analysis computes it; else none, which is said,
// never guessed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canaryStatistics, type CanaryResult } from '../analysis/canary-statistics.js';
import { parseCsvTable } from './csv-table.js';
import { archivedRunsOf } from './archived-runs-of.js';

/** The run's host canary (analysis.json `canary`, kept in run.json): per piece the run's median completion time and its interval, and each session's median. */
export interface RunCanary {
  pieces: { piece: string; medianMs: number | null; lowMs: number | null; highMs: number | null }[];
  sessions: { session: number; pieces: { piece: string; medianMs: number | null }[] }[];
}

/** The canaries of every archived run of a folder (runs/<id>/run.json), for the spread of the host-class rule (stats/host-class.ts). */
export function archiveCanaries(folder: string): RunCanary[] {
  const runs = join(folder, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs)
    .sort()
    .flatMap((id) => {
      const file = join(runs, id, 'run.json');
      if (!existsSync(file)) return [];
      const c = (JSON.parse(readFileSync(file, 'utf8')) as { canary?: RunCanary }).canary ?? samplesCanary(join(runs, id));
      return c ? [c] : [];
    });
}

/** Per piece the run median, as the host-class rule reads a canary. */
export const canaryMedians = (c: RunCanary): Record<string, number | null> => Object.fromEntries(c.pieces.map((p) => [p.piece, p.medianMs]));

/** The canary of a report folder's run, or null when none is recorded. */
export function folderCanary(folder: string): RunCanary | null {
  const own = join(folder, 'run.json');
  const files = existsSync(own) ? [own] : [...archivedRunsOf(folder)].map((r) => r.runJson);
  for (const file of files) {
    const record = JSON.parse(readFileSync(file, 'utf8')) as { canary?: RunCanary };
    if (record.canary) return record.canary;
  }
  // an archived run's samples.csv is the folder's own, or the same file as the published folder's
  return samplesCanary(folder);
}

/** run.json's canary: the run's median per piece with its interval, and each session's median. */
export function runCanaryOf(c: CanaryResult | null): RunCanary | null {
  if (!c) return null;
  return {
    pieces: c.run.map((p) => ({ piece: p.piece, medianMs: p.medianMs, lowMs: p.lowMs, highMs: p.highMs })),
    sessions: c.sessions.map((s) => ({ session: s.session, pieces: s.pieces.map((p) => ({ piece: p.piece, medianMs: p.medianMs })) })),
  };
}

/** The bootstrap of a canary computed from samples.csv: its medians do not depend on it, its intervals are seeded. */
const SAMPLES_CANARY_BOOTSTRAP = { resamples: 2000, confidence: 0.95, seed: 'samples-canary' };

/** The canary of a run from the canary launches of its folder's samples.csv; null without any. */
export function samplesCanary(folder: string): RunCanary | null {
  const file = join(folder, 'samples.csv');
  return existsSync(file) ? samplesCsvCanary(readFileSync(file, 'utf8')) : null;
}

/** Pure: the canary of a run from the canary launches of its samples.csv text (phase `canary`: the piece in `path`, the repeat in `round`); null without any. */
export function samplesCsvCanary(text: string): RunCanary | null {
  // most runs without a run.json canary have no canary launches either: no parse of a large CSV for them
  if (!text.includes(',canary,')) return null;
  const rows = parseCsvTable(text)
    .rows.filter((r) => r['phase'] === 'canary')
    .map((r) => ({
      session: Number(r['session'] || 1),
      piece: r['path'] ?? '',
      repeat: Number(r['round']),
      ok: r['ok'] === 'true',
      completionMs: r['completion_ms'] ? Number(r['completion_ms']) : null,
    }));
  return rows.length ? runCanaryOf(canaryStatistics(rows, SAMPLES_CANARY_BOOTSTRAP)) : null;
}

export interface CanaryRatio {
  /** after / before: the geometric mean over the pieces of each piece's ratio; null without a canary on a side. */
  ratio: number | null;
  /** Each piece's ratio of the runs' medians (geometric mean over each side's runs). */
  pieces: { piece: string; ratio: number }[];
  /** Why there is no ratio, e.g. "no canary recorded in the baseline"; null when there is one. */
  missing: string | null;
}

const logMedian = (c: RunCanary, piece: string): number | null => {
  const m = c.pieces.find((p) => p.piece === piece)?.medianMs;
  return typeof m === 'number' && m > 0 ? Math.log(m) : null;
};

/**
 * Pure: the canary's ratio of the `after` runs over the `before` runs (each side: its runs with a canary; a
 * side without any gives no ratio, `names` saying which). Pieces in every run of both sides count.
 */
export function canaryRatio(
  before: readonly (RunCanary | null)[],
  after: readonly (RunCanary | null)[],
  names: { before: string; after: string },
): CanaryRatio {
  const b = before.filter((c): c is RunCanary => !!c);
  const a = after.filter((c): c is RunCanary => !!c);
  const none = [...(b.length ? [] : [names.before]), ...(a.length ? [] : [names.after])];
  if (none.length) return { ratio: null, pieces: [], missing: `no canary recorded in ${none.join(' or ')}` };
  const all = [...b, ...a];
  const pieces = all[0]!.pieces.map((p) => p.piece).filter((piece) => all.every((c) => logMedian(c, piece) !== null));
  if (!pieces.length) return { ratio: null, pieces: [], missing: 'no canary piece was timed in every run' };
  const mean = (v: number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
  const per = pieces.map((piece) => ({ piece, ratio: Math.exp(mean(a.map((c) => logMedian(c, piece)!)) - mean(b.map((c) => logMedian(c, piece)!))) }));
  return { ratio: Math.exp(mean(per.map((p) => Math.log(p.ratio)))), pieces: per, missing: null };
}

/** "canary ×1.11 (pieces ×1.02–×1.25)", or "canary: no canary recorded in the baseline". */
export function canaryText(c: CanaryRatio): string {
  if (c.ratio === null) return `canary: ${c.missing}`;
  const rs = c.pieces.map((p) => p.ratio);
  const range = rs.length > 1 ? ` (pieces ×${Math.min(...rs).toFixed(2)}–×${Math.max(...rs).toFixed(2)})` : '';
  return `canary ×${c.ratio.toFixed(2)}${range}`;
}
