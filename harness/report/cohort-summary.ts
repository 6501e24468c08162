// The answer for one cohort in at most five sentences (pure): cold, warm, what
// goes with the runtime stack, failures and clusters, and where this run
// differs from the source report. Every interval, dominance and count stays in
// the data sections. Per-session results (issue 8) can add one clause to the
// cold and warm sentences ("in k of K sessions") without changing the rest.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from './format-number.js';
import { sessionsDisagreeInSize, type Formatters } from './conclusions.js';
import type { FindingVerdict } from './source-findings.js';
import type { PathNotes } from './report-options.js';
import { cellOrderNote } from './order-effect-notes.js';

export const maxSummarySentences = 5;

const ci = (d: DifferenceResult): string => `${fixed(d.confidence * 100, 0)}% CI [${fixed(d.lowMs!, 1)}, ${fixed(d.highMs!, 1)}] ms`;

function undetectedClause(d: DifferenceResult, other: string): string {
  if (sessionsDisagreeInSize(d))
    return `no difference from ${other} is established, as the sessions disagree in size: the ${d.a} − ${d.b} interval (${ci(d)}) excludes 0, the between-session one ([${fixed(d.sessionLowMs!, 1)}, ${fixed(d.sessionHighMs!, 1)}] ms) does not`;
  return `the ${d.a} − ${d.b} interval (${ci(d)}) contains 0, so no difference from ${other} is detected`;
}

/** Which way a difference points, seen from path p: negative when p has the lower median. */
function from(d: DifferenceResult, p: string): number {
  return d.a === p ? d.observedMs! : -d.observedMs!;
}

function stateSentence(a: AnalysisResult, cohort: string, state: string, paths: string[], f: Formatters): string | null {
  const cells = paths
    .map((p) => a.cells.find((c) => c.cohort === cohort && c.path === p && c.state === state && c.metric === 'ready'))
    .filter((c): c is CellStatistics => !!c && c.p50Ms !== null);
  if (cells.length === 0) return null;
  const best = [...cells].sort((x, y) => x.p50Ms! - y.p50Ms!)[0]!;
  const others = cells.filter((c) => c !== best);
  // a cell the cluster rule separates has no typical launch: its clusters are named, never its single P50
  const centre = (c: CellStatistics): string =>
    c.split ? `separate clusters at ${c.groups.map((g) => `${f.ms(g.medianMs)} (${f.pct(g.share)})`).join(', ')}` : f.ms(c.p50Ms!);
  const head =
    `With ${state} clients, ${best.path} has the lowest median Ready, ${centre(best)}${cellOrderNote(best)}` +
    (others.length ? `, against ${others.map((c) => `${centre(c)} for ${c.path}${cellOrderNote(c)}`).join(' and ')}` : '');
  const diffs = a.differences.filter((d) => d.cohort === cohort && d.state === state && d.metric === 'ready' && d.observedMs !== null && d.lowMs !== null);
  const vsBest = diffs.filter((d) => d.a === best.path || d.b === best.path);
  const undetected = vsBest.filter((d) => !d.detected);
  let tail = '';
  if (vsBest.length) {
    tail =
      undetected.length === 0
        ? `; every interval of a difference with ${best.path} excludes 0`
        : `; but ${undetected.map((d) => undetectedClause(d, d.a === best.path ? d.b : d.a)).join(', and ')}`;
  }
  const dominated = a.dominance.filter(
    (d) =>
      d.cohort === cohort &&
      d.state === state &&
      d.metric === 'ready' &&
      ((d.a === best.path && d.result === 'a-precedes-b') || (d.b === best.path && d.result === 'b-precedes-a')),
  );
  if (dominated.length && dominated.length === others.length)
    tail += `, and each of its launches is shorter than every launch of the other path${others.length > 1 ? 's' : ''}`;
  return `${head}${tail}.`;
}

/**
 * When two paths share a runtime stack and differ little while a path with
 * another stack differs much more, the gap goes with the stack: said once,
 * for the first state where it holds.
 */
function stackSentence(a: AnalysisResult, cohort: string, states: string[], notes: Record<string, PathNotes>): string | null {
  const stack = (p: string): string | null => notes[p]?.stack ?? null;
  for (const state of states) {
    const diffs = a.differences.filter((d) => d.cohort === cohort && d.state === state && d.metric === 'ready' && d.observedMs !== null && d.lowMs !== null);
    for (const same of diffs.filter((d) => stack(d.a) !== null && stack(d.a) === stack(d.b))) {
      for (const cross of diffs.filter((d) => d !== same && (d.a === same.b || d.b === same.b) && stack(d.a) !== stack(d.b))) {
        const other = cross.a === same.b ? cross.b : cross.a;
        const crossMs = Math.abs(from(cross, same.b));
        const sameMs = Math.abs(same.observedMs!);
        if (!cross.detected || sameMs * 4 > crossMs) continue;
        return (
          `The ${state} gap goes with the runtime stack, not with how the image is read: ${same.a} and ${same.b}, both on ${stack(same.a)}, ` +
          `differ by ${fixed(same.observedMs!, 1)} ms (${same.a} − ${same.b}, ${ci(same)}), while ${other}, on ${stack(other) ?? 'another stack'}, ` +
          `is ${fixed(Math.abs(from(cross, other)), 1)} ms ${from(cross, other) > 0 ? 'slower' : 'faster'} than ${same.b} at the median.`
        );
      }
    }
  }
  return null;
}

function healthSentence(a: AnalysisResult, cohort: string): string {
  const ready = a.cells.filter((c) => c.cohort === cohort && c.metric === 'ready');
  const launches = ready.reduce((s, c) => s + c.launches, 0);
  const failures = ready.reduce((s, c) => s + c.failures, 0);
  const split = a.cells.filter((c) => c.cohort === cohort && c.split);
  const fail =
    failures === 0
      ? `none of the ${launches} formal launches failed`
      : `${failures} of the ${launches} formal launches failed and are left out of the statistics`;
  const clusters =
    split.length === 0
      ? 'the cluster rule separated no cell'
      : `the cluster rule separated ${split.length} cell${split.length > 1 ? 's' : ''} (${split.map((c) => `${c.path} ${c.state} ${c.metric}`).join(', ')}), whose causes are undetermined`;
  return `${fail.charAt(0).toUpperCase()}${fail.slice(1)}, and ${clusters}.`;
}

function sourceSentence(verdicts: FindingVerdict[], cohort: string): string | null {
  const mine = verdicts.filter((v) => v.finding.cohort === cohort && v.verdict !== 'not measured');
  if (mine.length === 0) return null;
  const differs = mine.filter((v) => v.verdict === 'differs');
  if (differs.length === 0) return `All ${mine.length} of the source report's findings for ${cohort} hold here (see "Against the source report").`;
  const rest = mine.length - differs.length;
  return (
    `Unlike the source report, ${differs.map((v) => `where ${v.finding.statement.replace(/\.$/, '')}, here ${v.ours}`).join('; and ')}` +
    `${rest === 0 ? '' : rest === 1 ? `; its other finding for ${cohort} holds` : `; its other ${rest} findings for ${cohort} hold`}.`
  );
}

export function cohortSummary(
  a: AnalysisResult,
  cohort: string,
  paths: string[],
  states: string[],
  f: Formatters,
  notes: Record<string, PathNotes>,
  verdicts: FindingVerdict[],
): string[] {
  const s = [
    ...states.map((state) => stateSentence(a, cohort, state, paths, f)),
    stackSentence(a, cohort, states, notes),
    healthSentence(a, cohort),
    sourceSentence(verdicts, cohort),
  ].filter((x): x is string => x !== null);
  // never more than five: the stack reading goes first, the source comparison never
  while (s.length > maxSummarySentences) s.splice(s.length - 3, 1);
  return s;
}
