// Our own rendering logic with constructed rows (no measurement): the effect
// report has the source's shape and never gives a not-runnable row numbers.
import test from 'ava';
import type { EffectRow } from '../harness/config/effects-section.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { madeUpEffectRow, madeUpEffectRows } from './helpers/effect-rows.js';
import { renderEffectReport, type ReportedRow } from '../harness/sandbox/effect-table-md.js';
import { effectReportEnd } from '../harness/sandbox/effect-report-end.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';

const row = madeUpEffectRow;

function measured(id: string, system: EffectRow['system'], factor: number): ReportedRow {
  const samples = madeUpEffectRows(
    id,
    { sessions: 3, rounds: 4 },
    (u) => 100 + 10 * u,
    (u) => (100 + 10 * u) * factor,
  );
  const cell = effectCell(row(id, system), samples, { resamples: 300, confidence: 0.95, seed: id });
  return { row: row(id, system), state: 'measured', cell, verdict: triedAndDropped(cell, false), failures: { before: 0, after: 0 }, facts: {} };
}

const rows: ReportedRow[] = [
  measured('kept', 'gVisor', 0.5),
  measured('same', 'gVisor', 1),
  { row: row('fc', 'Firecracker'), state: 'not-runnable', reasons: ['firecracker is not installed'] },
];
const md = renderEffectReport({ title: 't', intro: 'i', sessions: 3, rounds: 4, seed: 's', order: 'balanced', rows });
const section = (name: string) => md.slice(md.indexOf(`## ${name}`), md.indexOf('## ', md.indexOf(`## ${name}`) + 3));

test('the report has the gVisor, Firecracker and Both tables in the source order', (t) => {
  const at = ['## gVisor', '## Firecracker', '## Both'].map((h) => md.indexOf(h));
  t.true(at.every((i) => i >= 0));
  t.deepEqual(
    [...at].sort((a, b) => a - b),
    at,
  );
});

test('a kept row is a table line with its before → after effect', (t) => {
  t.regex(section('gVisor'), /\| Row kept \| \d+(\.\d)? → \d+(\.\d)? ms \|/);
});

test('a row whose interval includes 1 is listed under Tried and dropped, not in the table', (t) => {
  const g = section('gVisor');
  t.regex(g.slice(g.indexOf('Tried and dropped:')), /- Row same: .*includes 1/);
  t.notRegex(g, /\| Row same \|/);
});

test('a not-runnable row is listed with its reason and no numbers', (t) => {
  const line = section('Firecracker')
    .split('\n')
    .find((l) => l.startsWith('- Row fc'))!;
  t.is(line, '- Row fc: firecracker is not installed. (Source: source of fc)');
});

test('report notes follow the method, and a provenance section closes the report', (t) => {
  const withNotes = effectReportEnd(md, ['Measured on a quiet machine.'], ['benchgraph commit abc (clean)', 'stage `effects-sample` (effects-sample): 1234']);
  t.true(withNotes.startsWith(md.trimEnd()));
  t.true(withNotes.indexOf('Measured on a quiet machine.') > withNotes.indexOf('## Method'));
  t.regex(withNotes, /## Provenance\n\n- benchgraph commit abc \(clean\)\n- stage `effects-sample` \(effects-sample\): 1234\n$/);
  t.is(effectReportEnd(md, [], []), md);
});
