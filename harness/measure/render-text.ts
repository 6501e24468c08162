// Pure: the text `pipeline measure` prints: one block per command, then one
// line per pair of commands.
import { verdictText } from '../comparison/verdict-words.js';
import { shellLine as shellJoin } from '../process/shell-quote.js';
import type { MeasuredCommand } from './command-list.js';
import type { CommandSummary, MeasureSummary, PairComparison, Spread } from './measure-summary.js';
import type { BurstLine } from './burst-lines.js';
import { withUnit, type TimeUnit } from './time-unit.js';
import type { Look, UntilRule } from './until-decided.js';

export interface RenderContext {
  commands: readonly MeasuredCommand[];
  unit: TimeUnit;
  /** How Ready was defined, for the Ready line. */
  ready: 'marker' | 'first-line' | 'none';
  marker: string;
  warmup: number;
  rounds: number;
  resumedRounds: number;
  seed: string;
  /** --until decided / --precision: the rule and the look it stopped at. */
  until?: { rule: UntilRule; look: Look | null } | null;
}

export function renderText(summary: MeasureSummary, ctx: RenderContext): string {
  const lines: string[] = [];
  for (const s of summary.commands) lines.push(...commandBlock(s, ctx, summary), '');
  const resumed = ctx.resumedRounds > 0 ? `, ${ctx.resumedRounds} of them from the record` : '';
  lines.push(
    `${ctx.rounds} rounds${resumed}, ${ctx.warmup} warmup round(s); commands interleaved in a seeded random order within each round (--seed ${ctx.seed})`,
  );
  // One verdict per pair (issue 47): under --until/--precision the sequential rule decides, and the
  // fixed-rounds bootstrap interval, not valid at a stop the data chose, is shown as detail without a verdict.
  const sequential = ctx.until?.look ? untilLines(ctx.until.rule, ctx.until.look, summary) : null;
  if (sequential) lines.push('', ...sequential);
  if (summary.pairs.length > 0) {
    const b = summary.bootstrap;
    lines.push(
      '',
      sequential
        ? `Detail, not a verdict: the paired-round bootstrap interval of the ratio of medians of ${summary.metric === 'ready' ? 'Ready' : 'Completion'} (${Math.round(b.confidence * 100)}%, ${b.resamples} resamples), which does not hold its error rate at a stop the data chose:`
        : `Comparison (ratio of medians of ${summary.metric === 'ready' ? 'Ready' : 'Completion'}, ${Math.round(b.confidence * 100)}% paired-round bootstrap interval, ${b.resamples} resamples):`,
    );
    for (const p of summary.pairs) lines.push(`  ${sequential ? pairDetail(p, summary.commands, ctx.unit) : pairSentence(p, summary.commands, ctx.unit)}`);
  }
  return lines.join('\n') + '\n';
}

function commandBlock(s: CommandSummary, ctx: RenderContext, summary: MeasureSummary): string[] {
  const c = ctx.commands[s.index]!;
  const typed = shellJoin(c.argv);
  const head = `Command ${s.index + 1}: ${s.name}${s.name !== typed ? `  (${typed})` : ''}`;
  const failed = s.failures > 0 ? `, ${s.failures} failed` : '';
  const out = [head, `  ${s.runs} runs${failed}`];
  out.push(spreadLine('Completion', s.completionMs, ctx.unit) ?? `  ${'Completion'.padEnd(18)}no successful runs`);
  if (ctx.ready === 'none') out.push(`  ${'Ready'.padEnd(18)}not measured (give --marker TEXT, or --ready first-line)`);
  else out.push(spreadLine(ctx.ready === 'marker' ? 'Ready' : 'Ready (1st line)', s.readyMs, ctx.unit) ?? `  ${'Ready'.padEnd(18)}never seen`);
  const burst = summary.bursts?.find((b) => b.command === s.index);
  if (burst) out.push(burstLine(burst, summary.metric, ctx.unit));
  if (s.clusters.length > 1) {
    const groups = s.clusters.map((g) => `${Math.round(g.share * 100)}% around ${withUnit(g.median, ctx.unit)}`).join(', ');
    out.push(`  note: Completion separates into ${s.clusters.length} groups (${groups}); the median alone hides this`);
  }
  if (s.firstFailure) out.push(`  first failure: ${s.firstFailure}`);
  return out;
}

/** "8 at once: 30 bursts, all done median 41.2 ms (first 12.0 ms), 194.2 launches/s; failed 0 of 240 [0.0%, 1.5%]". */
function burstLine(b: BurstLine, metric: 'ready' | 'completion', unit: TimeUnit): string {
  const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
  const f = b.failures;
  const timed =
    b.makespanMs === null
      ? 'no burst had every copy done'
      : `all done median ${withUnit(b.makespanMs, unit)} (first ${withUnit(b.firstMs!, unit)}), ${b.launchesPerS!.toFixed(1)} launches/s`;
  return `  ${`${b.concurrency} at once`.padEnd(18)}${b.bursts} bursts released together, ${metric === 'ready' ? 'Ready' : 'Completion'} from the release: ${timed}; failed ${f.successes} of ${f.trials} [${pct(f.low)}, ${pct(f.high)}]`;
}

function spreadLine(label: string, s: Spread | null, unit: TimeUnit): string | null {
  if (!s) return null;
  return `  ${label.padEnd(18)}median ${withUnit(s.median, unit).padEnd(11)} P95 ${withUnit(s.p95, unit).padEnd(11)} min ${withUnit(s.min, unit).padEnd(11)} max ${withUnit(s.max, unit)}`;
}

function x(v: number | null): string {
  return v === null ? '?' : v.toFixed(v < 10 ? 2 : 1);
}

/** "B vs A: ratio 1.42× [1.38, 1.47] (+50.3 ms [49.9, 50.8]), 30 rounds": the interval without a verdict. */
function pairDetail(p: PairComparison, commands: readonly CommandSummary[], unit: TimeUnit): string {
  const d = p.differenceMs;
  const diff =
    d.observed === null ? '' : ` (${d.observed >= 0 ? '+' : ''}${withUnit(d.observed, unit)} [${withUnit(d.low!, unit)}, ${withUnit(d.high!, unit)}])`;
  return `${commands[p.other]!.name} vs ${commands[p.base]!.name}: ratio ${x(p.ratio.observed)}× [${x(p.ratio.low)}, ${x(p.ratio.high)}]${diff}, ${p.rounds} rounds`;
}

/** "B is 1.42× [1.38, 1.47] slower than A (+50.3 ms [49.9, 50.8])", or no difference detected. */
export function pairSentence(p: PairComparison, commands: readonly CommandSummary[], unit: TimeUnit): string {
  const a = commands[p.base]!.name;
  const b = commands[p.other]!.name;
  const d = p.differenceMs;
  const diff =
    d.observed === null ? '' : ` (${d.observed >= 0 ? '+' : ''}${withUnit(d.observed, unit)} [${withUnit(d.low!, unit)}, ${withUnit(d.high!, unit)}])`;
  const interval = `${x(p.ratio.observed)}× [${x(p.ratio.low)}, ${x(p.ratio.high)}]`;
  if (p.ratio.observed === null) return `${b} vs ${a}: no comparison (a command has no successful runs in common rounds)`;
  if (!p.detected) {
    const v = p.verdict.verdict === 'equivalent' ? verdictText(p.verdict) : 'undecided, no difference detected';
    return `${b} vs ${a}: ${v} (ratio ${interval}${diff}, ${p.rounds} rounds)`;
  }
  return `${b} is ${interval} slower than ${a}${diff}`;
}

const why = { decided: 'every pair decided', precise: 'every interval within the precision', budget: 'the budget spent' } as const;

/** The sequential verdicts: where it stopped and, per pair, the verdict with its sequential interval. */
export function untilLines(rule: UntilRule, look: Look, summary: MeasureSummary): string[] {
  const flag = rule.kind === 'decided' ? '--until decided' : `--precision ${+(rule.relativeHalfWidth * 100).toFixed(2)}%`;
  const out = [
    `Sequential (${flag}): stopped after ${look.blocks * rule.blockRounds} rounds, look ${look.blocks} of ${rule.plan.maxSessions} (blocks of ${rule.blockRounds} rounds), ${look.reason ? why[look.reason] : 'not at a look'}; ` +
      `${Math.round((1 - rule.plan.alpha) * 100)}% sequential interval of the ratio, valid at whichever look it stopped:`,
  ];
  for (const q of look.pairs) {
    const i = q.decision.interval;
    const ratio = i ? `${x(Math.exp(i.mean))}× [${x(Math.exp(i.low))}, ${x(Math.exp(i.high))}]` : 'no interval';
    out.push(`  ${summary.commands[q.b]!.name} vs ${summary.commands[q.a]!.name}: ${verdictText(q.decision)} (ratio ${ratio})`);
  }
  return out;
}
