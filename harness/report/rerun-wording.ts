// The report's words for the rerun intervals: the summary cell's rerun
// interval (and cross-host range, with replicates on two hosts or more), and
// the scope line's sentence on which levels the intervals cover and which
// between-run figure the rerun interval stands on.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import type { HostEffect } from '../analysis/host-effects.js';
import { fixed } from '../publish/format-number.js';
import { msIntervalText } from './interval-text.js';
import { crossClassFactor } from '../analysis/cross-class.js';

/** ", rerun [lo, hi]" and "; hosts lo to hi" after a difference's 95% interval; '' without a rerun interval. */
export function rerunText(d: DifferenceResult, msDecimals: number): string {
  const ms = (v: number): string => fixed(v, msDecimals);
  // the rerun interval widens the two-level one, so its endpoints move with the seed as that one's do
  const rerun = d.rerun ? ` rerun ${msIntervalText(d.rerun.lowMs, d.rerun.highMs, d.seedSpreadMs, msDecimals, false)}` : '';
  const hosts = d.replicates?.crossHost ? ` hosts ${ms(d.replicates.crossHost.lowMs)} to ${ms(d.replicates.crossHost.highMs)}` : '';
  return rerun + hosts;
}

/** The words after a lower or higher difference whose same-class rerun interval holds 0. */
export const MAY_NOT_HOLD = 'rerun-fragile';

/**
 * A detected difference whose same-class rerun interval holds 0: a rerun on this host class may find no
 * difference or the other direction, so its direction is this run's, not the setup's.
 */
export function mayNotHoldOnRerun(d: DifferenceResult): boolean {
  return d.detected && !!d.rerun && d.rerun.lowMs <= 0 && d.rerun.highMs >= 0;
}

/** The factor a run moves a cell by at one standard deviation of the between-run figure. */
const factorAtOneSd = (logVariance: number): string => `×${fixed(Math.exp(Math.sqrt(logVariance)), 3)}`;

/** The scope line's sentence on the intervals' levels; null for an analysis written before rerun intervals. */
export function rerunScopeSentence(a: AnalysisResult): string | null {
  const r = a.rerun;
  if (!r) return null;
  const conf = fixed((a.differences[0]?.confidence ?? 0.95) * 100, 0);
  // with the archive's host classes the next sentence says what another class moves (crossClassSentence)
  const covers =
    `${conf}% intervals cover this run's sessions and rounds only; the same-class rerun interval (the appendix "Every difference"), where a rerun on this host class should land, adds between-run drift` +
    (a.crossClass ? '' : ' (a host of another class, by its canary, moves cells beyond it: pipeline compare says so and judges the ratios instead)');
  const drift = `${factorAtOneSd(r.runLogVariance)} per cell, ${factorAtOneSd(r.ratioRunLogVariance ?? 0)} between two paths, at one sd`;
  const left = r.otherClassRuns?.length
    ? ` Left out of it: ${r.otherClassRuns.length} same-key run${r.otherClassRuns.length === 1 ? '' : 's'} of another host class by the canary (${r.otherClassRuns.join(', ')}); pipeline compare sets such a run beside this one.`
    : '';
  if (r.source === 'host kind') {
    return `**Rerun:** ${covers}. With one run${left ? ' of this class' : ''}, it is assumed to be the host kind's: ${drift}, from ${r.figureSource}.${left}`;
  }
  const hosts = r.hosts >= 2 ? `; between hosts ${factorAtOneSd(r.hostLogVariance ?? 0)} per cell, and "hosts" is the range of the hosts' estimates` : '';
  const effects = hostEffectText(r.hostEffects ?? []);
  return `**Rerun:** ${covers}, ${drift}, measured on ${r.figureSource}${hosts}.${left}${effects ? ` ${effects}` : ''}`;
}

/**
 * How many Ready differences held on every class that measured them, counted apart by how many classes
 * did: a difference two classes share held "on both", never "on all 3".
 */
export function heldAcrossClasses(differences: readonly { classes: number; holds: number }[], also: string): string {
  const shared = differences.filter((d) => d.classes >= 2);
  const counts = [...new Set(shared.map((d) => d.classes))].sort((x, y) => y - x);
  if (!counts.length) return 'no Ready difference was measured on two classes';
  const on = (k: number): string => (k === 2 ? 'both' : `all ${k}`);
  const parts = counts.map((k) => {
    const of = shared.filter((d) => d.classes === k);
    return { k, n: of.length, held: of.filter((d) => d.holds === k).length };
  });
  const [first, ...rest] = parts;
  return (
    `${first!.held} of the ${first!.n} Ready differences shared by ${first!.k} classes held on ${on(first!.k)} in direction${also}` +
    rest.map((g) => `, ${g.held} of the ${g.n} shared by ${g.k} on ${on(g.k)}`).join('')
  );
}

/**
 * The scope line's sentence on the host classes (analysis/cross-class.ts): against the newest archived run of each
 * other class, how many Ready differences held on every class measured, and where a ratio should land on another
 * class; null without another class in the archive.
 */
export function crossClassSentence(a: AnalysisResult): string | null {
  const c = a.crossClass;
  if (!c) return null;
  const runs = c.otherClassRuns.length
    ? `against the newest archived run of each other class by the canary (${c.otherClassRuns.join(', ')}; designs may differ), ${heldAcrossClasses(c.differences, c.between ? ' and ratio' : '')}.`
    : 'the archive has no run of another class by the canary.';
  // the runs are named once: the pair that measured the spread is often the two runs named above
  const pairRuns = c.between?.pairs.flatMap((p) => p.runs) ?? [];
  const named = pairRuns.every((r) => c.otherClassRuns.includes(r)) && c.between?.pairs.length === 1;
  const spread = c.between
    ? ` On another class, expect a ratio a / b within ×${fixed(1 / crossClassFactor(c.between), 2)}–×${fixed(crossClassFactor(c.between), 2)} of this run's (from ${c.between.df} differences of same-key runs on two classes: ${named ? 'the two named' : c.between.pairs.map((p) => p.runs.join(' and ')).join('; ')}; differences.csv).`
    : ' No same-key runs on two classes measure how far a ratio moves between them.';
  return `**Host classes:** ${runs}${spread}`;
}

const cellRange = (low: number, high: number): string =>
  fixed(low, 2) === fixed(high, 2) ? `cells ×${fixed(low, 2)}` : `cells ×${fixed(low, 2)}–${fixed(high, 2)}`;

/** Per other host: its common factor, and the paths it moves beyond that factor (a path-specific host effect); '' with one host. */
export function hostEffectText(effects: readonly HostEffect[]): string {
  if (!effects.length) return '';
  const one = (e: HostEffect): string => {
    const specific = e.paths.filter((p) => p.pathSpecific);
    const paths = specific.length
      ? `; path-specific, beyond that: ${specific.map((p) => `${p.path} ×${fixed(p.beyondCommon, 2)} (${cellRange(p.lowRatio, p.highRatio)})`).join(', ')}`
      : '; no path moves beyond it';
    return `host ${e.host} against this run's host ${e.reference}: Ready cells ×${fixed(e.common, 2)} (median of ${e.cells})${paths}`;
  };
  return `**Hosts:** ${effects.map(one).join('. ')}.`;
}
