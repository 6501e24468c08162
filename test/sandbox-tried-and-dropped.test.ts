// The tried-and-dropped rule applied to effect samples imported from a CSV
// file (parseEffectSamples), as a lead would import samples measured elsewhere.
// The samples are drawn from seeded generators whose relation is known by
// construction, so each test knows which verdict the rule must give.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { effectCell } from '../harness/sandbox/effect-ratio.js';
import { EFFECT_SAMPLE_HEADER, formatEffectSample, parseEffectSamples, roundsOf, type EffectSample } from '../harness/sandbox/effect-samples-csv.js';
import { triedAndDropped } from '../harness/sandbox/tried-and-dropped.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { UserError } from '../harness/errors.js';

const ROUNDS = 30;
const BOOT = { resamples: 1000, confidence: 0.95, seed: 'rule-test' };

/** Writes a CSV of ROUNDS rounds of one row, before and after drawn by the given functions, and imports it back. */
function importRow(row: string, before: (u: number) => number, after: (u: number) => number) {
  const random = seededRandom(row);
  const lines = [EFFECT_SAMPLE_HEADER];
  for (let round = 1; round <= ROUNDS; round++) {
    const first = random() < 0.5 ? 'before' : 'after';
    for (const side of ['before', 'after'] as const) {
      const value = (side === 'before' ? before : after)(random());
      const s: EffectSample = { row, round, side, position: side === first ? 0 : 1, state: 'ok', value, failure: '' };
      lines.push(formatEffectSample(s));
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'bg-rule-'));
  try {
    const file = join(dir, 'samples.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const samples = parseEffectSamples(readFileSync(file, 'utf8'), file);
    return effectCell(roundsOf(samples, row), BOOT);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const base = (u: number) => 100 + 10 * u;

test('a row whose after values are half its before values is kept, with its whole interval below 1', (t) => {
  const cell = importRow('halved', base, (u) => base(u) / 2);
  const verdict = triedAndDropped(cell, false);
  t.false(verdict.dropped, verdict.reasons.join('; '));
  t.true(cell.high! < 1);
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

test('an imported line with an unknown side is a user error naming the file and line', (t) => {
  const text = `${EFFECT_SAMPLE_HEADER}\nr,1,before,0,ok,5,\nr,1,sideways,1,ok,5,\n`;
  const e = t.throws(() => parseEffectSamples(text, 'imported.csv'), { instanceOf: UserError }) as UserError;
  t.is(e.place.file, 'imported.csv');
  t.is(e.place.line, 3);
});
