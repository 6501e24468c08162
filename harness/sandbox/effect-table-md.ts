// Pure: the effect report in the source's shape: one table per system
// (gVisor, Firecracker, Both) of the rows kept by the rule, then "Tried and
// dropped" (with the clause that dropped each), then "Not runnable here"
// (with the doctor's reason). A not-runnable row is never given numbers.
import type { EffectRow, EffectSystem } from '../config/effects-section.js';
import type { EffectCell } from './effect-cell.js';
import { sessionDirectionSentence } from '../stats/two-level-bootstrap.js';
import { TRIED_AND_DROPPED_RULE, type DropVerdict } from './tried-and-dropped.js';

export interface MeasuredRow {
  row: EffectRow;
  state: 'measured';
  cell: EffectCell;
  verdict: DropVerdict;
  failures: { before: number; after: number };
  /** KEY=NUMBER facts printed by the row's setup (e.g. image_bytes). */
  facts: Record<string, number>;
}

export interface NotRunnableRow {
  row: EffectRow;
  state: 'not-runnable';
  reasons: string[];
}

export type ReportedRow = MeasuredRow | NotRunnableRow;

export interface EffectReportInput {
  title: string;
  intro: string;
  sessions: number;
  rounds: number;
  seed: string;
  order: string;
  rows: ReportedRow[];
}

const SYSTEMS: EffectSystem[] = ['gVisor', 'Firecracker', 'Both'];

function num(v: number | null, unit: string): string {
  if (v === null) return '–';
  if (unit === 'ms') return v >= 100 ? v.toFixed(0) : v.toFixed(1);
  if (unit === 'bytes') return `${(v / 1048576).toFixed(1)} MiB`;
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

function unitSuffix(unit: string): string {
  return unit === 'bytes' ? '' : ` ${unit}`;
}

export function effectText(m: MeasuredRow): string {
  const c = m.cell;
  return `${num(c.p50Before, m.row.unit)} → ${num(c.p50After, m.row.unit)}${unitSuffix(m.row.unit)}`;
}

function interval(cell: EffectCell): string {
  const c = cell.comparison;
  if (c.observed === null || c.low === null || c.high === null) return '–';
  const between = c.sessionLow !== null && c.sessionHigh !== null ? `; between sessions [${c.sessionLow.toFixed(2)}, ${c.sessionHigh.toFixed(2)}]` : '';
  return `×${c.observed.toFixed(2)} [${c.low.toFixed(2)}, ${c.high.toFixed(2)}]${between}`;
}

function nText(m: MeasuredRow): string {
  const f = m.failures.before + m.failures.after;
  const c = m.cell.comparison;
  return `${c.sessions} × ${c.sessions ? Math.round(c.rounds / c.sessions) : 0} rounds (${m.cell.nBefore}+${m.cell.nAfter})${f ? `, ${f} failed` : ''}; ${sessionDirectionSentence(c)}`;
}

function p90Text(m: MeasuredRow): string {
  return m.row.p90 ? `; P90 ${num(m.cell.p90Before, m.row.unit)} → ${num(m.cell.p90After, m.row.unit)}` : '';
}

function factsText(facts: Record<string, number>): string {
  const keys = Object.keys(facts).sort();
  return keys.length ? ` Setup: ${keys.map((k) => `${k}=${facts[k]}`).join(', ')}.` : '';
}

export function renderEffectReport(input: EffectReportInput): string {
  const out: string[] = [`# ${input.title}`, '', input.intro, ''];
  const measured = input.rows.filter((r): r is MeasuredRow => r.state === 'measured');
  for (const system of SYSTEMS) {
    out.push(`## ${system}`, '');
    const kept = measured.filter((m) => m.row.system === system && !m.verdict.dropped);
    if (kept.length === 0) out.push('No row of this system was measured here and kept by the rule.', '');
    else {
      out.push('| Optimization | Effect (P50 before → after) | after/before ratio [interval] | n | Source row |', '|---|---|---|---|---|');
      for (const m of kept) out.push(`| ${m.row.name} | ${effectText(m)}${p90Text(m)} | ${interval(m.cell)} | ${nText(m)} | ${m.row.source} |`);
      out.push('');
    }
    const dropped = measured.filter((m) => m.row.system === system && m.verdict.dropped);
    if (dropped.length) {
      out.push('Tried and dropped:', '');
      for (const m of dropped)
        out.push(
          `- ${m.row.name}: ${effectText(m)}${p90Text(m)}, ratio ${interval(m.cell)}, ${nText(m)}; dropped because ${m.verdict.reasons.join('; ')}. (Source: ${m.row.source})`,
        );
      out.push('');
    }
    const notRunnable = input.rows.filter((r): r is NotRunnableRow => r.state === 'not-runnable' && r.row.system === system);
    if (notRunnable.length) {
      out.push('Not runnable here:', '');
      for (const r of notRunnable) out.push(`- ${r.row.name}: ${r.reasons.join('; ')}. (Source: ${r.row.source})`);
      out.push('');
    }
  }
  out.push('## Method', '');
  out.push(
    `Each measured row ran in ${input.sessions} independent session${input.sessions === 1 ? '' : 's'} (each sets the row up afresh) of ${input.rounds} formal rounds; in each round its before and after configurations ran once each, in a ${input.order} order (seed \`${input.seed}\`), each launch after an untimed settle. ` +
      'The effect is P50 before → P50 after; the interval is the two-level percentile bootstrap (sessions, then paired rounds) of the ratio of medians (after/before), and with 3 or more sessions a Student t interval over the log per-session ratios. ' +
      'Failed launches are counted in n and never given a value.',
    '',
    `Rule: ${TRIED_AND_DROPPED_RULE}`,
    '',
  );
  for (const m of measured) {
    const facts = factsText(m.facts);
    if (facts) out.push(`- ${m.row.name}:${facts}`);
  }
  return out.join('\n').replace(/\n*$/, '\n');
}
