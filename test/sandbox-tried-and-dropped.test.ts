// The tried-and-dropped rule applied to effect samples read back from the one
// samples.csv format of every experiment, as a lead would import samples
// measured elsewhere (made-up rows: a test of our own logic).
// The samples are drawn from seeded generators whose relation is known by
// construction, so each test knows which verdict the rule must give.
import test from 'ava';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EffectRow } from '../harness/config/effects-section.js';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import { samplesCsv } from '../harness/publish/samples-csv.js';
import { effectCell } from '../harness/sandbox/effect-cell.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { UserError } from '../harness/errors.js';
import { madeUpEffectRow, madeUpEffectRows } from './helpers/effect-rows.js';
import { tempDir } from './helpers/cli.js';

const ROUNDS = 30;
const BOOT = { resamples: 1000, confidence: 0.95, seed: 'rule-test' };

const effectRow = (id: string): EffectRow => madeUpEffectRow(id);

/** Writes samples.csv of one row (3 sessions of ROUNDS / 3 rounds, before and after drawn by the given functions) and reads it back. */
function importRow(row: string, before: (u: number) => number, after: (u: number) => number) {
  const dir = tempDir('bg-rule-');
  try {
    const file = join(dir, 'samples.csv');
    writeFileSync(file, samplesCsv(madeUpEffectRows(row, { sessions: 3, rounds: ROUNDS / 3 }, before, after)));
    return effectCell(effectRow(row), parseSampleCsv(readFileSync(file, 'utf8'), file), BOOT);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const base = (u: number) => 100 + 10 * u;

test('a row whose after values are half its before values is kept, with its whole interval below 1', (t) => {
  const cell = importRow('halved', base, (u) => base(u) / 2);
  const verdict = triedAndDropped(cell, false);
  t.false(verdict.dropped, verdict.reasons.join('; '));
  t.true(cell.comparison.high! < 1 && cell.comparison.sessionHigh! < 1);
});

test('a row whose before and after come from the same distribution is dropped because its ratio interval includes 1', (t) => {
  const cell = importRow('same', base, base);
  const verdict = triedAndDropped(cell, false);
  t.true(verdict.dropped);
  t.regex(verdict.reasons.join('; '), /includes 1/);
});

// after: a lower median, but one launch in five is three times slower than any before value
const tailHeavy = (u: number) => (u < 0.2 ? 3 * base(1) + u : base(u) * 0.8);

test('a row with a lower median but a worse P90 is dropped when it asks for P90', (t) => {
  const cell = importRow('tail', base, tailHeavy);
  t.true(cell.p90After! > cell.p90Before!);
  const verdict = triedAndDropped(cell, true);
  t.true(verdict.dropped);
  t.regex(verdict.reasons.join('; '), /P90 got worse/);
});

test('the same lower-median, worse-P90 row is not dropped for P90 when it does not ask for P90', (t) => {
  const cell = importRow('tail', base, tailHeavy);
  const verdict = triedAndDropped(cell, false);
  t.false(verdict.reasons.some((r) => r.includes('P90')));
});

test('a row whose after values are detectably larger is dropped as worse', (t) => {
  const cell = importRow('slower', base, (u) => base(u) * 1.5);
  const verdict = triedAndDropped(cell, false);
  t.true(verdict.dropped);
  t.regex(verdict.reasons.join('; '), /above 1/);
});

test('a row whose sessions agree in direction but not in size is kept as lower with its size uncertain, naming the per-session range and the between-session interval', (t) => {
  // after/before is 0.95, 0.8 and 0.5 in the three sessions.
  const factor = [0, 0.95, 0.8, 0.5];
  const rows = madeUpEffectRows('uneven', { sessions: 3, rounds: 20 }, base, (u, session) => base(u) * factor[session]!);
  const cell = effectCell(effectRow('uneven'), rows, BOOT);
  t.true(cell.comparison.high! < 1, `two-level [${cell.comparison.low}, ${cell.comparison.high}]`);
  t.true(cell.comparison.sessionHigh! > 1, 'the between-session interval holds 1');
  t.is(cell.comparison.findings.direction, 'lower');
  t.true(cell.comparison.findings.sizeUncertain);
  const verdict = triedAndDropped(cell, false);
  t.is(verdict.outcome, 'kept');
  t.deepEqual(verdict.reasons, []);
  t.regex(verdict.sizeCaveat!, /^size uncertain: ×0\.5\d to ×0\.9\d by session, between-session interval \[[\d.]+, [\d.]+\]$/);
});

test('the restore-page-cache shape (every after faster, sessions x0.72, x0.72 and x0.51, a bimodal before) is lower with an uncertain size, never dropped (made-up rows)', (t) => {
  // before: 13 of 21 launches near 480 ms, 8 spread over 566-1189 ms; after: ≤ 375 ms, each session its own factor
  const factor = [0, 0.72, 0.72, 0.51];
  const before = (u: number) => (u < 13 / 21 ? 453 + 53 * (u / (13 / 21)) : 566 + 623 * ((u - 13 / 21) / (8 / 21)));
  const rows = madeUpEffectRows('restore-page-cache', { sessions: 3, rounds: 7 }, before, (u, session) => Math.min(375, before(u) * factor[session]!));
  const cell = effectCell(effectRow('restore-page-cache'), rows, BOOT);
  const verdict = triedAndDropped(cell, false);
  t.is(cell.comparison.findings.direction, 'lower');
  t.not(verdict.outcome, 'dropped');
  t.false(verdict.reasons.some((r) => /disagree/.test(r)));
});

test('a row whose sessions disagree in direction is dropped, naming how many point the same way', (t) => {
  // after/before is 0.7, 0.75 and 1.1: the pooled interval may exclude 1, the sessions do not agree
  const factor = [0, 0.7, 0.75, 1.1];
  const rows = madeUpEffectRows('mixed', { sessions: 3, rounds: 20 }, base, (u, session) => base(u) * factor[session]!);
  const cell = effectCell(effectRow('mixed'), rows, BOOT);
  t.is(cell.comparison.findings.direction, null);
  const verdict = triedAndDropped(cell, false);
  t.true(verdict.dropped);
  t.regex(verdict.reasons.join('; '), /includes 1|2 of 3 point the same way/);
});

test('an imported line with an unknown phase is a user error naming the file and line', (t) => {
  const rows = madeUpEffectRows('r', { sessions: 1, rounds: 1 }, base, base);
  const text = samplesCsv(rows).replace(/\n$/, '').split('\n');
  text[2] = text[2]!.replace(',formal,', ',sideways,');
  const e = t.throws(() => parseSampleCsv(text.join('\n') + '\n', 'imported.csv'), { instanceOf: UserError }) as UserError;
  t.is(e.place.file, 'imported.csv');
  t.is(e.place.line, 3);
});
