// The report's carryover section (issue 18): per Ready cell, the position
// effect and the predecessor effect with their intervals and the "order
// effect" flag, as analysed (analysis/carryover-diagnostics.ts). Pure.
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';
import { paragraph, table, type Block } from '../document/document-model.js';
import type { SampleRow } from '../db/sample-row.js';
import { carryoverCpu, OWN_WORK_SHARE, type CarryoverCpuRow } from './carryover-cpu.js';

function verdictText(c: CellStatistics): string {
  if (c.orderEffect)
    return `**order effect**: ${[c.position?.flagged ? 'position' : null, c.predecessor?.flagged ? 'previous path' : null].filter(Boolean).join(' and ')}`;
  if (c.carryover === 'unresolved') return 'unresolved';
  return c.carryover === 'within-size' ? 'within size' : 'not estimated';
}

const after = (previous: string | null): string => (previous === null ? 'first' : `after ${previous}`);
const positionsText = (ps: number[]): string => (ps.length === 1 ? `position ${ps[0]}` : `positions ${ps[0]}–${ps[ps.length - 1]}`);

/** One sentence on the flagged cell whose system CPU moved most with its previous path; null when none. */
function cpuSentence(rows: readonly CarryoverCpuRow[], ms: (v: number) => string): string | null {
  const pairs = rows.flatMap((r) => {
    const fast = r.byPredecessor.find((g) => g.previous === r.fastAfter);
    const slow = r.byPredecessor.find((g) => g.previous === r.slowAfter);
    return fast && slow && fast.sysMs > 0 ? [{ r, fast, slow, ratio: slow.sysMs / fast.sysMs }] : [];
  });
  if (pairs.length === 0) return null;
  const { r, fast, slow } = pairs.reduce((a, p) => (p.ratio > a.ratio ? p : a));
  return (
    `In this run the difference is kernel time of the launch itself: ${r.cohort} ${r.path} ${r.state} used a median ${ms(fast.sysMs)} ms of system CPU ${after(fast.previous)} ` +
    `and ${ms(slow.sysMs)} ms ${after(slow.previous)}, with user CPU ${ms(fast.userMs)} and ${ms(slow.userMs)} ms${rows.length > 1 ? ' (every flagged cell in the appendix)' : ''}.`
  );
}

/** The first sentence of a text, and the rest. Pure. */
function firstSentence(text: string): [string, string] {
  const t = text.trim().replace(/\.$/, '');
  const m = /\.\s+(?=[A-Z])/.exec(t);
  return m ? [t.slice(0, m.index), t.slice(m.index + 1).trim()] : [t, ''];
}

/** Carryover in the main text (unresolved cells, flagged Completion cells) and in the appendix (the definition and the per-cell tables). */
export function carryoverSection(
  a: AnalysisResult,
  cohorts: string[],
  paths: string[],
  states: string[],
  msDecimals: number,
  extra: { launches?: readonly SampleRow[]; measuredCause?: string | null } = {},
): { main: Block[]; appendix: Block[] } {
  const r = a.rules;
  const ms = (v: number): string => fixed(v, msDecimals);
  const main: Block[] = [];
  const appendix: Block[] = [];
  const cells = a.cells.filter((c) => c.metric === 'ready' && (c.position !== null || c.predecessor !== null));
  if (cells.length === 0) {
    main.push(
      paragraph(
        `No cell has at least ${a.rules.carryover.minGroupN} launches in each half of the positions of its rounds, or after each of two different paths, so carryover is not estimated.`,
      ),
    );
    return { main, appendix };
  }
  appendix.push(
    paragraph(
      'A launch may pay for the one before it. For each cell, the position effect is the median Ready of the launches whose path ran in the last half of its round ' +
        'divided by the median of those in the first half (with P paths per round: first positions 0 to ⌊P/2⌋−1, last ⌈P/2⌉ to P−1; the middle one of an odd P is in neither). ' +
        'The predecessor effect is the largest ratio between the medians after two different previous paths ("first": none ran before it in the round). ' +
        `Each half, and each predecessor group compared, needs at least ${r.carryover.minGroupN} launches; with fewer the effect is not estimated. ` +
        `Intervals: percentile bootstrap, ${r.bootstrap.resamples} resamples (seed \`${r.bootstrap.seed}\`), each group's launches resampled on their own; ` +
        `the position interval at ${fixed(r.bootstrap.confidence * 100, 0)}%, the predecessor interval at the Bonferroni level over its pairs of groups, since the pair is picked after looking. ` +
        `A cell is flagged **order effect** when an interval excludes 1 and its ratio is at least ${fixed(r.carryover.minRatio, 2)} (or, for position, at most 1/${fixed(r.carryover.minRatio, 2)}); ` +
        'its verdict is **unresolved** when a ratio reaches that size but its interval includes 1 (this run cannot tell; the predecessor ratio, the largest of several, exceeds 1 by chance alone), and **within size** when both ratios stay below it. ' +
        (extra.measuredCause
          ? 'These describe this run’s order; what carries over was measured apart (the main text says what).'
          : 'These describe this run’s order: they do not say what carries over.'),
    ),
  );
  const order = (c: CellStatistics): number => paths.indexOf(c.path) * 10 + states.indexOf(c.state);
  for (const cohort of cohorts) {
    const mine = cells.filter((c) => c.cohort === cohort).sort((x, y) => order(x) - order(y));
    if (mine.length === 0) continue;
    const p = mine.find((c) => c.position)?.position;
    appendix.push(
      table(
        ['path', 'state', 'launches by position', 'median first / last', 'position effect', 'median by previous path (n)', 'predecessor effect', 'verdict'],
        mine.map((c) => {
          const pos = c.position;
          const pre = c.predecessor;
          return [
            c.path,
            c.state,
            pos ? pos.byPosition.map((b) => `${b.position}: ${b.n}`).join(', ') : '-',
            pos ? `${ms(pos.firstMedianMs)} (${pos.nFirst}) / ${ms(pos.lastMedianMs)} (${pos.nLast})` : '-',
            pos ? `×${fixed(pos.ratio, 2)} [${fixed(pos.low, 2)}, ${fixed(pos.high, 2)}]` : '-',
            pre ? pre.byPredecessor.map((b) => `${after(b.previous)} ${ms(b.medianMs)} (${b.n})`).join('; ') : '-',
            pre
              ? `×${fixed(pre.ratio, 2)} ${after(pre.slowAfter)} / ${after(pre.fastAfter)} [${fixed(pre.low, 2)}, ${fixed(pre.high, 2)}] at ${fixed(pre.confidence * 100, 1)}%`
              : '-',
            verdictText(c),
          ];
        }),
        `**${cohort}**, Ready (ms)${p ? `; ${p.positions} positions, first = ${positionsText(p.firstPositions)}, last = ${positionsText(p.lastPositions)}` : ''}:`,
      ),
    );
  }
  const unresolved = cells.filter((c) => c.carryover === 'unresolved');
  if (unresolved.length) {
    const whose = `whose order may matter by ${fixed(r.carryover.minRatio, 2)} or more but whose intervals include 1`;
    // the count is the summary's (launch-phrases.ts orderEffectSentence), said once; here only where the cells are named
    appendix.push(paragraph(`Unresolved Ready cells, ${whose}: ${unresolved.map((c) => `${c.cohort} ${c.path} ${c.state}`).join(', ')}.`));
  }
  const cpu = carryoverCpu(cells, extra.launches ?? []);
  const [answer, detail] = extra.measuredCause ? firstSentence(extra.measuredCause) : ['', ''];
  const cause = [answer ? `What carries over, measured apart: ${answer}.` : null, cpuSentence(cpu, ms)].filter((x): x is string => x !== null);
  // what carries over, measured apart, in the appendix; the main text points there
  // one pointer for both: the unresolved cells (also statistics.csv's carryover column) and what carries over
  const pointed = [
    ...(unresolved.length ? ['the unresolved Ready cells (also in statistics.csv’s carryover column)'] : []),
    ...(cause.length ? ['what carries over between launches, measured apart, and the CPU of the flagged cells'] : []),
  ];
  if (pointed.length) main.push(paragraph(`${pointed.join('; ')}: the appendix "Carryover detail".`.replace(/^./, (x) => x.toUpperCase())));
  if (cause.length) appendix.push(paragraph(cause.join(' ')));
  if (detail) appendix.push(paragraph(`What carries over, in full: ${detail}.`));
  if (cpu.length)
    appendix.push(
      table(
        ['cohort', 'path', 'state', 'median user / system CPU by previous path, ms (n)'],
        cpu.map((row) => [
          row.cohort,
          row.path,
          row.state,
          row.byPredecessor.map((g) => `${after(g.previous)} ${ms(g.userMs)} / ${ms(g.sysMs)} (${g.n})`).join('; '),
        ]),
        `CPU time of the launch's own processes in the cells flagged for their previous path, where that CPU is at least ${fixed(OWN_WORK_SHARE * 100, 0)}% of the median Ready (docker's pull runs in the engine, so its launches are left out):`,
      ),
    );
  const completion = a.cells.filter((c) => c.metric === 'completion' && c.orderEffect === true);
  main.push(
    paragraph(
      completion.length
        ? `Completion cells flagged order effect (their figures are in statistics.csv): ${completion.map((c) => `${c.cohort} ${c.path} ${c.state}`).join(', ')}.`
        : 'No Completion cell is flagged order effect (figures in statistics.csv).',
    ),
  );
  return { main, appendix };
}
