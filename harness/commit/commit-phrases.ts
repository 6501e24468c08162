// The commit-diff report's sentences and cells (pure): every phrase that
// states a result lives here as a named function, so the document builder
// only arranges them and a test can call each one on made-up analyses.
import { fixed } from '../publish/format-number.js';
import type { ComparisonResult } from '../stats/paired-comparison.js';
import type { JudgedComparison } from '../analysis/direction-rule.js';
import type { Judgement } from '../comparison/judge.js';
import { type CellRatio, type CommitAnalysis, type Growth } from './commit-analysis.js';
import { spreadBeyondDigits } from '../stats/seed-spread.js';
import type { CommitReportInputs } from './commit-report-inputs.js';
import { growthShape } from '../stats/floor-power-fit.js';

export const maxInterpretationSentences = 5;

export const ms = (v: number | null): string => (v === null ? '–' : v >= 1000 ? `${fixed(v / 1000, 2)} s` : `${fixed(v, 0)} ms`);
export const mb = (v: number | null): string => (v === null ? '–' : `${fixed(v / 1e6, 1)} MB`);
export const times = (v: number | null): string => (v === null ? '–' : `${fixed(v, 2)}×`);
/** A cost per unit of size (per file, per MB): µs below 1 ms, else ms. */
export const us = (msPerUnit: number): string =>
  Math.abs(msPerUnit) >= 1 ? `${fixed(msPerUnit, 2)} ms` : `${fixed(msPerUnit * 1000, Math.abs(msPerUnit) >= 0.1 ? 0 : 1)} µs`;

export const dimLabel: Record<string, string> = { total_mb: 'base size (MB)', file_count: 'file count', change_bytes: 'change (bytes)' };
const unitOf: Record<string, string> = { total_mb: 'MB', file_count: 'file', change_bytes: 'byte' };

export function fixedText(f: Record<string, number>): string {
  return Object.entries(f)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** A cell as a reader names it: "2000 MB in 100 files, 1 KB change". */
export function cellText(d: Record<string, number>): string {
  return `${d['total_mb']} MB in ${d['file_count']} files, ${changeText(d)} change`;
}

/** The cell without its file count, "100 MB, 1 KB change": what the rows of a file-count sweep share. */
export function baseText(d: Record<string, number>): string {
  return `${d['total_mb']} MB, ${changeText(d)} change`;
}

function changeText(d: Record<string, number>): string {
  const change = d['change_bytes']!;
  return change >= 1048576 ? `${change / 1048576} MB` : change >= 1024 ? `${change / 1024} KB` : `${change} B`;
}

/**
 * "9.32× [6.04, 11.69]": the ratio of medians and its two-level interval, the
 * endpoints to `digits` decimals (those the bootstrap seeds agree on); when even
 * those move with the seed, "[6.0, 11.7; seed ±0.48]".
 */
export function ratioCell(c: ComparisonResult | null, digits = 2, seedSpread: number | null = null): string {
  if (!c || c.observed === null) return '–';
  const moves = spreadBeyondDigits(seedSpread, digits) ? `; seed ±${fixed(seedSpread!, digits)}` : '';
  return `${times(c.observed)} [${fixed(c.low!, digits)}, ${fixed(c.high!, digits)}${moves}]`;
}

/** Said once under the tables when some interval is printed with fewer digits because its endpoints move with the bootstrap seed. */
export function seedDigitsSentence(a: CommitAnalysis): string | null {
  const fewer = a.ratios.filter((r) => r.seedSpread !== undefined && r.intervalDigits < 2);
  if (!fewer.length) return null;
  const worst = Math.max(...fewer.map((r) => r.seedSpread ?? 0));
  const said = fewer.filter((r) => spreadBeyondDigits(r.seedSpread, r.intervalDigits)).length;
  return (
    `${fewer.length} of ${a.ratios.length} wall-time intervals rest on few commits per engine, and their endpoints move by up to ${fixed(worst, 2)} with the bootstrap seed (two more seeds drawn): printed to the decimals the seeds agree on` +
    (said ? `, with "seed ±" on the ${said} that move even at one decimal.` : '.')
  );
}

/**
 * The verdict of a ratio in the words of docs/VERDICTS.md, by the rule the run was judged by
 * (comparison/judge.ts). A fixed design, by the one direction rule (analysis/direction-rule.ts):
 * "detected: naive slower"; "naive slower, size uncertain" when every session alone shows it but the
 * between-session interval holds 1; else "undecided" and why. A run that sampled until decided, by the
 * sequential rule, with the look it was decided at.
 */
export function verdictCell(c: JudgedComparison, j: Judgement): string {
  const slower = (d: 'lower' | 'higher'): string => (d === 'higher' ? 'naive slower' : 'native slower');
  if (j.rule.kind === 'sequential') {
    const at = `sequential rule, session ${j.rule.look}`;
    if (j.direction !== null) return `${slower(j.direction)} (${at})`;
    return j.verdict === 'equivalent' ? `equivalent within ±${fixed(100 * j.marginRelative, 1)}% (${at})` : `undecided (${at})`;
  }
  if (c.findings.detected && c.findings.direction !== null) return `detected: ${slower(c.findings.direction)}`;
  if (c.findings.detected) return c.low !== null && c.low > 1 ? 'detected: naive slower' : 'detected: native slower';
  if (c.findings.sizeUncertain && c.findings.direction !== null) return `${slower(c.findings.direction)}, size uncertain`;
  if (c.findings.sessionsDisagreeInSize) return 'undecided: sessions disagree';
  return 'undecided: interval holds 1';
}

/** The cell at the largest total_mb of the total_mb sweep (or the largest cell). */
export function largestBase(a: CommitAnalysis): Record<string, number> | null {
  const sweep = a.growth.find((g) => g.dimension === 'total_mb');
  const candidates = a.ratios.filter((r) => !sweep || Object.entries(sweep.fixed).every(([k, v]) => r.dims[k] === v));
  const best = [...candidates].sort((p, q) => (q.dims['total_mb'] ?? 0) - (p.dims['total_mb'] ?? 0))[0];
  return best ? best.dims : null;
}

export const ratioAt = (a: CommitAnalysis, dims: Record<string, number>, state: string): CellRatio | undefined =>
  a.ratios.find((r) => r.state === state && Object.entries(dims).every(([k, v]) => r.dims[k] === v));

/** The source's figure for a state (10 GB base, containerd): what the summary puts beside this run. */
export function sourceCell(state: string): string {
  if (state === 'initial') return '846 s before the fix (10 GB)';
  if (state === 'incremental') return '39 s → 0.46 s (1 KB change)';
  return '–';
}

/** The scope line: host, sessions × rounds, commits measured, date. */
export function scopeLine(inp: CommitReportInputs): string {
  const formal = inp.rows.filter((r) => r.phase === 'formal');
  const cells = new Set(formal.map((r) => r.cell)).size;
  const sessions = inp.session.sessions ?? new Set(formal.map((r) => r.session)).size;
  const parts = [
    `Host ${inp.session.host ?? 'unknown'}${inp.session.cpus ? ` (${inp.session.cpus} CPUs)` : ''}`,
    `${sessions} session${sessions === 1 ? '' : 's'} × ${inp.session.rounds ?? '?'} rounds`,
    `${formal.length} measured commits (${cells} cells, 2 engines, initial and incremental)`,
  ];
  if (inp.session.startedAt) parts.push(inp.session.startedAt.slice(0, 10));
  return `Scope: ${parts.join(' · ')}.`;
}

/** Residuals closer than this (relative) describe the data alike. */
const alikeWithin = 0.05;

/** Which growth model misses the observations less on the log scale ('alike' within 5%), or null when one is missing. */
export function betterModel(g: Growth): 'line' | 'power' | 'alike' | null {
  if (g.powerLogRms === null || g.lineLogRms === null) return null;
  if (Math.abs(g.lineLogRms - g.powerLogRms) <= alikeWithin * Math.max(g.lineLogRms, g.powerLogRms)) return 'alike';
  return g.lineLogRms < g.powerLogRms ? 'line' : 'power';
}

export function lineCell(g: Growth): string {
  if (!g.line) return '–';
  const l = g.line;
  return `${ms(l.floor)} + ${us(l.cost)}/${unitOf[g.dimension] ?? 'unit'} [floor ${ms(l.floorLow)}–${ms(l.floorHigh)}; cost ${us(l.costLow)}–${us(l.costHigh)}]`;
}

export function exponentCell(g: Growth): string {
  return g.fit ? `${fixed(g.fit.slope, 2)} [${fixed(g.fit.low, 2)}, ${fixed(g.fit.high, 2)}]` : '–';
}

export function betterCell(g: Growth): string {
  const b = betterModel(g);
  if (!b) return '–';
  const name = b === 'line' ? 'floor + cost' : b === 'power' ? 'power law' : 'alike';
  return `${name} (${fixed(g.lineLogRms!, 2)} vs ${fixed(g.powerLogRms!, 2)})`;
}

const growthOf = (a: CommitAnalysis, dimension: string, method: string, state: string): Growth | undefined =>
  a.growth.find((g) => g.dimension === dimension && g.method === method && g.state === state);

/** The opening's interpretation: at most five sentences, none repeating a number of the summary table. */
export function interpretation(a: CommitAnalysis): string[] {
  const out: string[] = [];
  const big = largestBase(a);
  const inc = big ? ratioAt(a, big, 'incremental') : undefined;
  const ini = big ? ratioAt(a, big, 'initial') : undefined;
  if (inc) {
    const c = inc.comparison;
    out.push(
      (inc.judgement.rule.kind === 'sequential' ? inc.judgement.direction === 'higher' : c.findings.detected && c.low! > 1)
        ? `The native diff speeds up the incremental commit, in ${inc.naiveSlowerSessions} of ${c.sessions} sessions.`
        : 'The incremental commit shows no established gain from the native diff.',
    );
  }
  if (ini)
    out.push(
      (ini.judgement.rule.kind === 'sequential' ? ini.judgement.direction !== null : ini.comparison.findings.detected)
        ? 'At the largest base the initial commit differs between the engines too.'
        : 'At the largest base the initial commit shows no gain from the native diff.',
    );
  const byCount = growthOf(a, 'file_count', 'naive', 'incremental');
  const shape = byCount ? shapeSentence(byCount) : null;
  if (shape) out.push(shape);
  const bySize = growthOf(a, 'total_mb', 'naive', 'incremental');
  if (bySize?.fit && bySize.fit.low <= 0 && bySize.fit.high >= 0) out.push('At a fixed file count, the bytes of the base do not matter to it.');
  return out.slice(0, maxInterpretationSentences);
}

/** The floor + c·n^k fit as a cell: "k 1.33 [1.10, 1.62]; 1 of 6 sizes above the floor". */
export function floorPowerCell(g: Growth): string {
  const f = g.floorPower;
  if (!f) return '–';
  if (f.sizesAboveFloor === 0) return `flat: none of ${f.sizes} sizes above the floor`;
  return `k ${fixed(f.exponent, 2)} [${fixed(f.exponentLow, 2)}, ${fixed(f.exponentHigh, 2)}]; ${f.sizesAboveFloor} of ${f.sizes} sizes above the floor`;
}

/**
 * The growth shape of the naive incremental commit against the file count, from
 * the floor + c·n^k fit's named finding (growthShape): never named from fewer
 * than three sizes above the floor.
 */
export function shapeSentence(g: Growth): string | null {
  const f = g.floorPower;
  if (!f) return null;
  // growth.csv's k, k_low, k_high and k_sizes_above_floor: the sentence names a shape only from them.
  const k = `k = ${fixed(f.exponent, 2)} [${fixed(f.exponentLow, 2)}, ${fixed(f.exponentHigh, 2)}] (${f.sizesAboveFloor} of ${f.sizes} sizes above the floor)`;
  const who = `The naive incremental commit against the file count`;
  switch (growthShape(f)) {
    case 'not-identified':
      return `${who}: only ${f.sizesAboveFloor} of ${f.sizes} sizes ${f.sizesAboveFloor === 1 ? 'rises' : 'rise'} above the floor, too few to tell a linear from a quadratic cost (floor + c·n^k needs at least three).`;
    case 'linear':
      return `${who} grows linearly above its floor: ${k} holds 1 and excludes 2.`;
    case 'quadratic':
      return `${who} grows quadratically above its floor: ${k} holds 2 and excludes 1.`;
    case 'between':
      return `${who} grows faster than linearly and slower than quadratically above its floor: ${k}.`;
    case 'sublinear':
      return `${who} grows slower than linearly above its floor: ${k}.`;
    case 'superquadratic':
      return `${who} grows faster than quadratically above its floor: ${k}.`;
    case 'unresolved':
      return `${who}: ${k} holds both 1 and 2, so these sizes do not tell a linear from a quadratic cost.`;
  }
}

/** The source's O(n²) claim against the floor + c·n^k fit: a verdict only where the sizes can give one. */
export function quadraticClaimSentence(a: CommitAnalysis): string | null {
  const f = growthOf(a, 'file_count', 'naive', 'incremental')?.floorPower;
  if (!f) return null;
  // the summary's shape sentence gives k and its interval; said once, so referred to here
  const k = 'the interval on k of the floor + c·n^k fit against the file count (summary)';
  switch (growthShape(f)) {
    case 'not-identified':
      return `Not tested: quadratic growth in entries needs sizes above the commit's floor to show, and only ${f.sizesAboveFloor} of ${f.sizes} file counts ${f.sizesAboveFloor === 1 ? 'rises' : 'rise'} above it.`;
    case 'quadratic':
    case 'superquadratic':
      return `Supported: ${k} holds 2 or more.`;
    case 'unresolved':
      return `Not decided: ${k} holds both 1 and 2.`;
    default:
      return `Not supported: ${k} excludes 2.`;
  }
}

/** What the growth fits say about the power law's exponent: an artifact of a floor when the line fits better. */
export function exponentArtifactSentence(a: CommitAnalysis): string | null {
  const g = growthOf(a, 'file_count', 'naive', 'incremental');
  if (!g?.fit || betterModel(g) !== 'line' || !g.line || g.line.floor <= 0) return null;
  const excludes = g.fit.high < 1 ? ', whose interval excludes 1,' : '';
  return `The naive incremental commit's small exponent against the file count${excludes} is an artifact of fitting a power law to a cost with a floor, which dominates the small counts.`;
}

/** The engine CPU drop at a cell, as the source states it (−75%): 1 − native/naive, with the interval of the ratio carried over. */
export function cpuDropSentence(r: CellRatio | undefined): string | null {
  const c = r?.engineCpu;
  if (!r || !c || c.observed === null || c.low === null || c.high === null) return null;
  const drop = (ratio: number): string => `${fixed(100 * (1 - 1 / ratio), 0)}%`;
  const between = c.sessionLow !== null && c.sessionHigh !== null ? `, between sessions ${drop(c.sessionLow)}–${drop(c.sessionHigh)}` : '';
  return `The engine's CPU time per incremental commit at the largest base fell from ${ms(r.cpuMedianA)} to ${ms(r.cpuMedianB)}: a drop of ${drop(c.observed)} (95% interval ${drop(c.low)}–${drop(c.high)}${between}), against the source's 75% drop in average CPU utilisation.`;
}

/** What the sessions can decide about native being slower than naive in a many-file initial commit. */
export function manyFileVerdict(r: CellRatio): string {
  const c = r.comparison;
  const k = `${r.naiveSlowerSessions} of ${c.sessions} sessions`;
  if (r.judgement.rule.kind === 'sequential') return `${verdictCell(c, r.judgement)} (naive slower in ${k})`;
  if (!c.betweenSessionEstimated) return `undecided: ${c.sessions} session${c.sessions === 1 ? '' : 's'} give no between-session interval`;
  if (c.findings.detected) return c.low! > 1 ? `detected: native faster (naive slower in ${k})` : `detected: native slower (naive slower in ${k})`;
  if (c.findings.sizeUncertain && c.findings.direction === 'higher') return `native faster, size uncertain (naive slower in ${k})`;
  if (c.findings.sizeUncertain && c.findings.direction === 'lower') return `native slower, size uncertain (naive slower in ${k})`;
  if (c.findings.sessionsDisagreeInSize)
    return `undecided: the sessions disagree (${c.findings.sessionsAloneExcluding} of ${c.sessions} alone exclude 1; naive slower in ${k})`;
  return `undecided (naive slower in ${k})`;
}

/** Said when no many-file row is decided: what K sessions can show at best by direction alone. */
export function undecidedText(sessions: number): string {
  const chance = 2 * 0.5 ** sessions;
  return `These ${sessions} sessions cannot decide it. Even ${sessions} of ${sessions} sessions on one side of 1 happens by chance with probability ${fixed(chance, 2)} when the engines are equal.`;
}

/** The smallest cell of the sweeps (fewest files, then the smallest base and change): where a commit's floor shows. */
export function floorCell(a: CommitAnalysis): Record<string, number> | null {
  const key = (d: Record<string, number>): number[] => [d['file_count'] ?? 0, d['total_mb'] ?? 0, d['change_bytes'] ?? 0];
  const sorted = [...a.cells].sort((p, q) => {
    const [x, y] = [key(p.dims), key(q.dims)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
  return sorted[0]?.dims ?? null;
}

/**
 * What the naive incremental commit's floor is made of, from the engine's
 * measured CPU at the smallest cell (issue 33: the ~0.4 s naive floor against
 * native's 65 ms was not explained): the engine's CPU time (user and system,
 * and its read/write system calls when recorded) against the wall time, beside
 * native's. Null without CPU figures for both engines.
 */
export function naiveFloorSentence(a: CommitAnalysis): string | null {
  const d = floorCell(a);
  if (!d) return null;
  const stat = (method: string) =>
    a.cells.find((c) => c.method === method && c.state === 'incremental' && Object.entries(d).every(([k, v]) => c.dims[k] === v));
  const naive = stat('naive');
  const native = stat('native');
  if (!naive || !native || naive.p50WallMs === null || native.p50WallMs === null || naive.p50EngineCpuMs === null || native.p50EngineCpuMs === null)
    return null;
  const split = (c: NonNullable<typeof naive>): string => {
    const parts: string[] = [];
    if (c.p50EngineUserCpuMs !== null && c.p50EngineSysCpuMs !== null) parts.push(`${ms(c.p50EngineUserCpuMs)} user, ${ms(c.p50EngineSysCpuMs)} system`);
    if (c.p50EngineSyscalls !== null) parts.push(`${fixed(c.p50EngineSyscalls, 0)} read/write system calls`);
    return parts.length ? ` (${parts.join('; ')})` : '';
  };
  const extraCpu = naive.p50EngineCpuMs - native.p50EngineCpuMs;
  const extraWall = naive.p50WallMs - native.p50WallMs;
  // The part of the extra wall time that the extra engine CPU does not account for.
  const notCpu = extraWall - extraCpu;
  const share = extraWall > 0 ? `${fixed((100 * Math.max(0, extraCpu)) / extraWall, 0)}%` : null;
  return (
    `What the naive floor is: at ${cellText(d)}, the naive incremental commit takes ${ms(naive.p50WallMs)} (P50), its engine ${ms(naive.p50EngineCpuMs)} of CPU${split(naive)}, ` +
    `against native's ${ms(native.p50WallMs)} and ${ms(native.p50EngineCpuMs)}${split(native)}. ` +
    (share !== null
      ? `The extra engine CPU, ${ms(extraCpu)} for the naive diff walking the lower and merged trees, is ${share} of the extra wall time of ${ms(extraWall)}` +
        (notCpu > 0
          ? `; the other ${ms(notCpu)} of it is not engine CPU (the engine waiting on I/O or on the commit's other steps).`
          : ': the engine used more CPU than the wall time grew (its threads ran in parallel).')
      : 'The naive commit takes no longer than the native one here.')
  );
}
