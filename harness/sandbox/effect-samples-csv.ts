// Pure: the CSV of raw effect samples, one line per measured launch:
//   row,round,side,position,state,value,failure
// state is ok | failed | timeout; value is the metric (empty unless ok);
// position is the side's place in its round's seeded order (0 or 1).
// parseEffectSamples reads such a file back (also one made elsewhere, for
// import) and names file:line and the column of a bad line.
import { UserError } from '../errors.js';
import type { EffectSideName } from './effect-row.js';
import type { EffectRound } from './effect-ratio.js';

export interface EffectSample {
  row: string;
  round: number;
  side: EffectSideName;
  position: number;
  state: 'ok' | 'failed' | 'timeout';
  value: number | null;
  failure: string;
}

export const EFFECT_SAMPLE_HEADER = 'row,round,side,position,state,value,failure';

function quote(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatEffectSample(s: EffectSample): string {
  return [s.row, String(s.round), s.side, String(s.position), s.state, s.value === null ? '' : String(s.value), quote(s.failure)].join(',');
}

function splitLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

export function parseEffectSamples(text: string, file: string): EffectSample[] {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== EFFECT_SAMPLE_HEADER) {
    throw new UserError(`the first line must be '${EFFECT_SAMPLE_HEADER}'`, { file, line: 1 }, 'export effect samples with this header');
  }
  const out: EffectSample[] = [];
  lines.forEach((raw, i) => {
    if (i === 0 || raw.trim() === '') return;
    const f = splitLine(raw.replace(/\r$/, ''));
    const bad = (col: string, what: string): never => {
      throw new UserError(`column ${col}: ${what}`, { file, line: i + 1 }, 'fix or remove the line');
    };
    if (f.length !== 7) bad('*', `expected 7 fields, found ${f.length}`);
    const [row, round, side, position, state, value, failure] = f as [string, string, string, string, string, string, string];
    if (!/^[a-z0-9-]+$/.test(row)) bad('row', `'${row}' is not a row id`);
    if (!/^\d+$/.test(round)) bad('round', `'${round}' is not a round number`);
    if (side !== 'before' && side !== 'after') bad('side', `'${side}' is neither before nor after`);
    if (state !== 'ok' && state !== 'failed' && state !== 'timeout') bad('state', `'${state}' is not ok, failed or timeout`);
    const v = value === '' ? null : Number(value);
    if (state === 'ok' && (v === null || !Number.isFinite(v))) bad('value', `an ok sample needs a number, found '${value}'`);
    out.push({
      row,
      round: Number(round),
      side: side as EffectSideName,
      position: Number(position),
      state: state as EffectSample['state'],
      value: state === 'ok' ? v : null,
      failure,
    });
  });
  return out;
}

/** The valid values of one row, grouped into rounds (ascending round number). */
export function roundsOf(samples: readonly EffectSample[], row: string): EffectRound[] {
  const byRound = new Map<number, { before: number[]; after: number[] }>();
  for (const s of samples) {
    if (s.row !== row || s.state !== 'ok' || s.value === null) continue;
    const r = byRound.get(s.round) ?? { before: [], after: [] };
    r[s.side].push(s.value);
    byRound.set(s.round, r);
  }
  return [...byRound.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}
