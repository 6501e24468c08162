// The launch report's sentences and summary cells (pure): every phrase of
// the lazy-startup report that states a result lives here as a named
// function, so the document builder only arranges them and a test can call
// each one on made-up analyses.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import type { SampleRow } from '../db/sample-row.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { fixed, grouped } from '../publish/format-number.js';
import { msIntervalText } from './interval-text.js';
import type { FindingVerdict } from './source-findings.js';
import type { Formatters } from './conclusions.js';
import { outcomeWords, twoLevelContainsZero } from './conclusions.js';
import { differenceOrderEffect } from './order-effect-notes.js';
import { MAY_NOT_HOLD, mayNotHoldOnRerun, rerunText } from './rerun-wording.js';
import { equivalenceText, noDirectionText } from './difference-verdict-text.js';

export const maxInterpretationSentences = 5;

const readyCell = (a: AnalysisResult, cohort: string, path: string, state: string): CellStatistics | undefined =>
  a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === 'ready');

/** The key comparisons of the summary table: the pairs the source's difference findings name, else the first two compared. */
export function keyPairs(a: AnalysisResult, verdicts: readonly FindingVerdict[]): [string, string][] {
  const pairs: [string, string][] = [];
  const add = (x: string, y: string): void => {
    if (!pairs.some(([p, q]) => p === x && q === y) && a.differences.some((d) => d.metric === 'ready' && d.a === x && d.b === y)) pairs.push([x, y]);
  };
  for (const v of verdicts) if (v.finding.kind === 'difference' && v.finding.a && v.finding.b) add(v.finding.a, v.finding.b);
  if (pairs.length === 0) for (const d of a.differences.filter((x) => x.metric === 'ready')) if (pairs.length < 2) add(d.a, d.b);
  return pairs;
}

/** "7647.8 [5657.9, 7994.3], ×42.7" or "−3.1 [−6.2, 2.1], not detected" (undecided, in a run sampled until decided): one difference in a summary cell. */
/** withRerun: the rerun interval (and cross-host range) after the interval, as the summary table shows them. */
export function differenceCell(a: AnalysisResult, d: DifferenceResult | undefined, msDecimals: number, withRerun = false): string {
  if (!d || d.observedMs === null || d.lowMs === null || d.highMs === null) return '-';
  const ms = (v: number): string => fixed(v, msDecimals);
  const ca = readyCell(a, d.cohort, d.a, d.state);
  const cb = readyCell(a, d.cohort, d.b, d.state);
  const ratio = ca?.p50Ms && cb?.p50Ms ? `×${fixed(ca.p50Ms / cb.p50Ms, ca.p50Ms / cb.p50Ms >= 10 ? 1 : 2)}` : null;
  const verdict = d.detected ? null : outcomeWords(d, noDirectionText(a, d));
  const order = differenceOrderEffect(a, d).length ? 'order effect' : null;
  const rerun = mayNotHoldOnRerun(d) ? MAY_NOT_HOLD : null;
  return [
    `${ms(d.observedMs)} ${msIntervalText(d.lowMs, d.highMs, d.seedSpreadMs, msDecimals)}${withRerun ? rerunText(d, msDecimals) : ''}`,
    ratio,
    verdict,
    rerun,
    order,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The fastest path of a cohort and state by Ready P50, and whether it is the only one at that level (detected against every
 * other), or equivalent to another within the practical margin. `brief`: the equivalence without its margin, for a table
 * whose comparison row gives it.
 */
export function fastestCell(a: AnalysisResult, cohort: string, state: string, paths: readonly string[], brief = false): string {
  const cells = paths.map((p) => readyCell(a, cohort, p, state)).filter((c): c is CellStatistics => !!c && c.p50Ms !== null);
  if (cells.length === 0) return '-';
  const best = [...cells].sort((x, y) => x.p50Ms! - y.p50Ms!)[0]!;
  const ties = a.differences.filter(
    (d) => d.cohort === cohort && d.state === state && d.metric === 'ready' && (d.a === best.path || d.b === best.path) && !d.detected,
  );
  const other = (d: DifferenceResult): string => (d.a === best.path ? d.b : d.a);
  // an equivalent pair is said so, with its margin; the rest are not told apart
  const judged = ties.map((d) => ({ d, equivalence: equivalenceText(a, d) }));
  const apart = judged.filter((x) => x.equivalence === null).map((x) => other(x.d));
  const words = [
    ...judged.flatMap((x) =>
      x.equivalence === null ? [] : [brief ? `equivalent to ${other(x.d)}` : x.equivalence.replace(/^equivalent/, `equivalent to ${other(x.d)}`)],
    ),
    ...(apart.length ? [`not told apart from ${apart.join(', ')}`] : []),
  ];
  return words.length ? `${best.path} (${words.join('; ')})` : best.path;
}

/** A stand-in twin of a source finding: its id is "<finding id> (<stand-in>)" (analysis/source-verdicts.ts sourceReference). */
const standInOf = (v: FindingVerdict): string | null => /^\S+ \(([^)]+)\)$/.exec(v.finding.id)?.[1] ?? null;

/** How many of some verdicts were judged, held in direction, had a size to compare, and held in magnitude too. */
function tally(vs: readonly FindingVerdict[]): { judged: number; direction: number; sized: number; magnitude: number } {
  const judged = vs.filter((v) => v.verdict !== 'not measured' && v.verdict !== 'not comparable');
  const direction = judged.filter((v) => v.direction === null || v.direction === 'held');
  const sized = direction.filter((v) => v.magnitude !== null && v.magnitude.judged !== false);
  return { judged: judged.length, direction: direction.length, sized: sized.length, magnitude: sized.filter((v) => v.magnitude!.held).length };
}

/**
 * "Of the source's 8 findings, 4 of the 7 judged held in direction and 1 of the 3 with a size to compare
 * also in magnitude (1 is not comparable); judged again against the stand-in gvisor-lazy, 3 of 4 held in
 * direction and 0 of 2 also in magnitude." The source's own findings and their stand-in twins are
 * counted apart, so no finding is counted twice; a finding with no size to compare (a dominance, or a
 * difference neither run detects) is not counted as held in magnitude.
 */
export function sourceTallySentence(verdicts: readonly FindingVerdict[]): string | null {
  const own = verdicts.filter((v) => standInOf(v) === null);
  const twins = verdicts.filter((v) => standInOf(v) !== null);
  if (own.length === 0) return null;
  const t = tally(own);
  const nc = own.filter((v) => v.verdict === 'not comparable').length;
  const nm = own.filter((v) => v.verdict === 'not measured').length;
  const tail = [nc ? `${nc} ${nc === 1 ? 'is' : 'are'} not comparable` : null, nm ? `${nm} could not be measured here` : null].filter(Boolean);
  const main =
    `Of the source's ${own.length} findings, ${t.direction} of the ${t.judged} judged held in direction and ${t.magnitude} of the ${t.sized} with a size to compare also in magnitude` +
    (tail.length ? ` (${tail.join(' and ')})` : '');
  if (twins.length === 0) return `${main}.`;
  const w = tally(twins);
  const who = [...new Set(twins.map(standInOf))].join(', ');
  return `${main}; judged again against the stand-in ${who}, ${w.direction} of ${w.judged} held in direction and ${w.magnitude} of ${w.sized} also in magnitude.`;
}

/**
 * Where the same source finding is set against two of this run's paths and
 * the direction holds for one and not the other, which one matches: the
 * reading a reader most needs when a stand-in is involved.
 */
export function standInSentence(verdicts: readonly FindingVerdict[]): string | null {
  const groups = new Map<string, FindingVerdict[]>();
  for (const v of verdicts) {
    if (v.finding.kind !== 'difference' || v.direction === null) continue;
    const key = `${v.finding.cohort}\u0000${v.finding.state}\u0000${v.finding.a}\u0000${v.finding.low}\u0000${v.finding.high}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const parts: string[] = [];
  for (const g of groups.values()) {
    const held = g.filter((v) => v.direction === 'held');
    const not = g.filter((v) => v.direction !== 'held');
    if (held.length === 0 || not.length === 0) continue;
    const f = g[0]!.finding;
    parts.push(
      `${f.cohort} ${f.state}, the source's direction holds for ${held.map((v) => `${v.finding.a} − ${v.finding.b}`).join(' and ')} but not for ${not.map((v) => `${v.finding.a} − ${v.finding.b}`).join(' and ')}`,
    );
  }
  return parts.length ? `${parts.map((p, i) => (i === 0 ? p.charAt(0).toUpperCase() + p.slice(1) : p)).join('; ')}.` : null;
}

/**
 * Which step takes the largest share of each cold cell's median Ready, from
 * the median spans of the cells whose paths print phase marks (medians of
 * spans do not add up to the median Ready exactly, so shares are approximate).
 */
export function coldStepSentence(a: AnalysisResult, cohorts: readonly string[], paths: readonly string[]): string | null {
  const parts: string[] = [];
  for (const cohort of cohorts) {
    for (const path of paths) {
      const spans = (a.spans ?? []).filter((x) => x.cohort === cohort && x.path === path && x.state === 'cold' && x.p50Ms !== null);
      const ready = readyCell(a, cohort, path, 'cold');
      if (spans.length < 2 || !ready?.p50Ms) continue;
      const top = [...spans].sort((x, y) => y.p50Ms! - x.p50Ms!)[0]!;
      parts.push(`${cohort} ${path} ${fixed((100 * top.p50Ms!) / ready.p50Ms, 0)}% in ${top.name}`);
    }
  }
  return parts.length ? `Cold, the step that takes most of the median Ready is: ${parts.join('; ')} (see "Where the cold time goes").` : null;
}

/**
 * The cells the order of launches moved (flagged "order effect"), and how many
 * Ready cells the check could not resolve (carryover verdict 'unresolved': a
 * ratio reaches the size, its interval includes 1), so "none flagged" never
 * reads as "none has one" when most cells were not resolved. When the check
 * resolved no cell at all (every one unresolved or not estimated), it says
 * that instead: "no cell is flagged" would then say nothing. The count is said
 * here only, once; "Order and carryover" names the cells.
 */
export function orderEffectSentence(a: AnalysisResult, measuredCause: string | null = null): string | null {
  const ready = a.cells.filter((c) => c.metric === 'ready');
  const flagged = ready.filter((c) => c.orderEffect);
  const unresolved = ready.filter((c) => c.carryover === 'unresolved');
  const resolved = ready.filter((c) => c.orderEffect || c.carryover === 'within-size');
  const inside = 'an order effect of the flagged size lies inside their intervals';
  if (flagged.length === 0 && resolved.length === 0 && ready.length > 0) {
    const notEstimated = ready.length - unresolved.length;
    return (
      `The order check could not resolve any of the ${ready.length} Ready cells: ` +
      [
        unresolved.length ? `${unresolved.length} ${unresolved.length === 1 ? 'is' : 'are'} unresolved (${inside})` : null,
        notEstimated ? `${notEstimated} had too few launches to estimate` : null,
      ]
        .filter(Boolean)
        .join(' and ') +
      ', so this run neither finds nor rules out an order effect (see "Order and carryover").'
    );
  }
  const notResolved = unresolved.length ? `; the check could not resolve ${unresolved.length} of ${ready.length} Ready cells, as ${inside}` : '';
  if (flagged.length === 0)
    return `No Ready cell is flagged with an order effect${notResolved ? `${notResolved}; see` : ' (see'} "Order and carryover"${notResolved ? '.' : ').'}`;
  return (
    `${flagged.length} Ready cell${flagged.length === 1 ? '' : 's'} depend${flagged.length === 1 ? 's' : ''} on ${flagged.length === 1 ? 'its' : 'their'} position in the round or the path before: ` +
    `${flagged.map((c) => `${c.cohort} ${c.path} ${c.state}`).join(', ')}; the differences that use ${flagged.length === 1 ? 'it' : 'them'} describe this run's order as well as the paths${notResolved}` +
    (measuredCause ? ' ("Order and carryover" says what carries over, measured apart).' : '.')
  );
}

/** Failed formal launches, or null when none failed. */
export function failuresSentence(a: AnalysisResult): string | null {
  const ready = a.cells.filter((c) => c.metric === 'ready');
  const failures = ready.reduce((s, c) => s + c.failures, 0);
  if (failures === 0) return null;
  const launches = ready.reduce((s, c) => s + c.launches, 0);
  return `${failures} of the ${launches} formal launches failed; they are counted and left out of every statistic (see the appendix "Failures").`;
}

/**
 * The stack rule's finding (analysis/analysis-findings.ts: two paths on one
 * runtime stack differ by at most analysis.findings.stack_gap_share of a
 * detected gap to a path on another stack), worded once, for the first state
 * and cohort where it holds, without repeating the summary's numbers.
 */
export function stackSentence(a: AnalysisResult, cohorts: readonly string[], states: readonly string[]): string | null {
  for (const cohort of cohorts) {
    for (const state of states) {
      const f = a.findings?.stack.find((x) => x.cohort === cohort && x.state === state);
      if (!f) continue;
      const share = f.threshold === 0.25 ? 'a quarter' : `${fixed(100 * f.threshold, 0)}%`;
      return (
        `${cap(state)}, the gap is associated with the runtime stack, not with how the image is read (${cohort}): ${f.near.a} and ${f.near.b}, both on ${f.stack}, ` +
        `differ by less than ${share} of it, while ${f.other}, on ${f.otherStack ?? 'another stack'}, is ${f.otherSlower ? 'slower' : 'faster'}.`
      );
    }
  }
  return null;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The opening's interpretation: at most five sentences, the stand-in reading first. */
export function interpretation(
  a: AnalysisResult,
  verdicts: readonly FindingVerdict[],
  cohorts: readonly string[],
  paths: readonly string[],
  states: readonly string[],
  measuredCarryover: string | null = null,
): string[] {
  return [
    standInSentence(verdicts),
    stackSentence(a, cohorts, states),
    coldStepSentence(a, cohorts, paths),
    orderEffectSentence(a, measuredCarryover),
    // a split cell: the summary's ‡ and its legend say it (split-flag.ts)
    failuresSentence(a),
    sourceTallySentence(verdicts),
  ]
    .filter((s): s is string => s !== null)
    .slice(0, maxInterpretationSentences);
}

/** Launch counts by phase, as samples.csv holds them. */
export function phaseCounts(launches: readonly SampleRow[]): { phase: string; launches: number; failures: number }[] {
  const by = new Map<string, { launches: number; failures: number }>();
  for (const r of launches) {
    const p = String(r['phase']);
    const c = by.get(p) ?? { launches: 0, failures: 0 };
    c.launches++;
    if (r['ok'] !== true) c.failures++;
    by.set(p, c);
  }
  return ['preflight', 'warmup', 'formal'].filter((p) => by.has(p)).map((p) => ({ phase: p, ...by.get(p)! }));
}

/** "samples.csv holds 40 preflight, 60 warmup and 600 formal launches (0 failed)". */
export function accountingSentence(launches: readonly SampleRow[], preflight: { launches: number; failures: number } | null): string {
  const counts = phaseCounts(launches);
  const failed = counts.reduce((s, c) => s + c.failures, 0);
  const parts = counts.map((c) => `${grouped(c.launches)} ${c.phase}`);
  const held = parts.length === 0 ? 'no' : parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  const stage = preflight
    ? ` The warmup stage's own ${preflight.launches} preflight launch${preflight.launches === 1 ? '' : 'es'} (${preflight.failures} failed) are in its warmup.json, not in samples.csv.`
    : '';
  return `samples.csv holds ${held} launches (${failed} failed); only formal launches enter the statistics, and no launch is excluded for its speed.${stage}`;
}

/** The settle before every timed launch, from the formal launches' settle columns; null when no launch recorded one. */
export function settleSentence(launches: readonly SampleRow[], dirtyKb: number | null, timeoutS: number | null): string | null {
  const formal = launches.filter((r) => r['phase'] === 'formal' && typeof r['settle_ms'] === 'number');
  if (formal.length === 0) return null;
  const ms = formal.map((r) => r['settle_ms'] as number).sort((x, y) => x - y);
  const median = ms.length % 2 ? ms[(ms.length - 1) / 2]! : (ms[ms.length / 2 - 1]! + ms[ms.length / 2]!) / 2;
  const timedOut = formal.filter((r) => r['settle_timed_out'] === true).length;
  return (
    `Before every timed launch the harness synced and waited, untimed, until the host's dirty and writeback pages fell below ${dirtyKb === null ? 'the threshold' : `${grouped(dirtyKb)} kB`}` +
    `${timeoutS === null ? '' : ` (at most ${timeoutS} s)`}: the wait took a median ${fixed(median, 0)} ms and at most ${fixed(ms[ms.length - 1]!, 0)} ms, and ${timedOut} of ${formal.length} waits timed out.`
  );
}

/** The host facts that bear on a cold time: the disk probe and the iowait of the sessions; null when not recorded. */
export function hostFactsSentence(records: readonly SessionRecord[] | null, f: Formatters): string | null {
  if (!records || records.length === 0) return null;
  const probes = records.flatMap((r) => (r.disk ? [r.disk.start, r.disk.end] : [])).filter((p) => p.state === 'ok' && p.writeMBps !== null);
  const io = records.map((r) => r.noise.iowaitShare);
  const lo = Math.min(...io);
  const hi = Math.max(...io);
  const disk = probes.length
    ? `this host wrote ${fixed(probes[0]!.bytes / 2 ** 20, 0)} MiB with fsync at ${fixed(Math.min(...probes.map((p) => p.writeMBps!)), 0)}–${fixed(Math.max(...probes.map((p) => p.writeMBps!)), 0)} MB/s at the sessions' starts and ends, and `
    : '';
  return `For scale, ${disk}iowait took ${lo === hi ? f.pct(lo) : `${f.pct(lo)}–${f.pct(hi)}`} of the CPU time over the sessions; these are associations, not causes.`;
}

/** "docker − lazy, cohort shell, warm, Ready: 12.3 ms [8.1, 16.0]": one difference as an item of the confirmation list. */
function confirmationItem(d: DifferenceResult, msDecimals: number): string {
  const ms = (v: number | null): string => (v === null ? '-' : fixed(v, msDecimals));
  const metric = d.metric === 'ready' ? 'Ready' : 'Completion';
  const interval = d.lowMs === null || d.highMs === null ? '[-, -]' : msIntervalText(d.lowMs, d.highMs, d.seedSpreadMs, msDecimals);
  return `${d.a} − ${d.b}, cohort ${d.cohort}, ${d.state}, ${metric}: ${ms(d.observedMs)} ms ${interval} over ${d.sessions} sessions`;
}

/**
 * The Sessions section's account of design.confirm: one sentence on what
 * the extra session was for, and the list of the conclusions it confirmed
 * (undecided on the planned sessions, detected with it). Null when
 * confirmation was off.
 */
export function confirmationSessionsBlock(a: AnalysisResult, msDecimals: number): { sentence: string; confirmed: string[] } | null {
  const c = a.confirmation;
  if (!c) return null;
  const k = c.plannedSessions;
  if (c.session === null)
    return { sentence: `Confirmation was on: no difference was undecided after the ${k} planned sessions, so no session was added.`, confirmed: [] };
  const judged = a.differences.filter((d) => d.confirmation?.verdictBefore === 'undecided');
  const confirmed = judged.filter((d) => d.confirmation?.confirmed);
  const still = judged.filter((d) => d.confirmation?.verdictAfter === 'undecided').length;
  const lost = judged.filter((d) => d.confirmation?.verdictAfter === 'not detected').length;
  const rest = [still ? `${still} stayed undecided` : null, lost ? `${lost} ${lost === 1 ? 'was' : 'were'} no longer detected` : null]
    .filter(Boolean)
    .join(' and ');
  const sentence =
    `Confirmation was on: ${judged.length} difference${judged.length === 1 ? ' was' : 's were'} undecided after the ${k} planned sessions ` +
    `(their two-level interval excluded 0, but the between-session t interval did not, or a session pointed the other way), so session ${c.session} ran over only their cohorts and paths; ` +
    (confirmed.length
      ? `with it ${confirmed.length} ${confirmed.length === 1 ? 'was' : 'were'} detected, confirmed this way${rest ? ` (${rest})` : ''}:`
      : `with it none was confirmed${rest ? `: ${rest}` : ''}.`);
  return { sentence, confirmed: confirmed.map((d) => confirmationItem(d, msDecimals)) };
}

/** The Method's sentence on design.confirm; null when it was off. */
export function confirmationMethodSentence(a: AnalysisResult): string | null {
  const c = a.confirmation;
  if (!c) return null;
  return (
    `Confirmation was on (design.confirm): after the ${c.plannedSessions} planned sessions, every difference whose two-level interval excluded 0 but which was not yet detected in all sessions got one more session over only its cohort and both its paths, with the same rounds, warmup and settle; ` +
    `such a difference is judged on every session that ran both its paths, every other cell on the ${c.plannedSessions} planned sessions (docs/STATISTICS.md, Confirmation).`
  );
}

/** What design.confirm would add to the next run: one session over the cells still undecided here; null when none is. */
export function confirmationCostSentence(a: AnalysisResult): string | null {
  const cost = a.nextRun.confirmation;
  // a run that samples until decided adds its own sessions; design.confirm cannot be on beside it
  if (!cost || a.decision?.rule === 'sequential') return null;
  const minutes = cost.costS / 60;
  return (
    `With design.confirm on, the next run would add one session over the ${cost.cells} cell${cost.cells === 1 ? '' : 's'} of the ${cost.undecided} difference${cost.undecided === 1 ? '' : 's'} undecided here: ` +
    `${grouped(cost.launches)} launches at ${cost.rounds} rounds, about ${minutes < 1.5 ? `${fixed(cost.costS, 0)} s` : `${fixed(minutes, 0)} minutes`}, session start included.`
  );
}
