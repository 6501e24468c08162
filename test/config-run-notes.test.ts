// report.notes tied to one run (`sample_output`) are rendered only with that
// run's samples (config/run-notes.ts): a newcomer's rerun of a published
// pipeline must not claim the published run's time and commit as its own.
// Made-up notes and digests: a test of our own logic.
import test from 'ava';
import { notesForRun } from '../harness/config/run-notes.js';
import { reportOptions } from '../harness/config/report-options.js';

const published = 'ccb35f056bb2defacc27261d112898de74fd368900c03d187af3a5d03fb55cb0';
const other = '0f8343143fed00112233445566778899aabbccddeeff00112233445566778899';
const notes = reportOptions({
  notes: ['Byte counts include headers (made up).', { sample_output: published.slice(0, 16), text: 'Sampled on a quiet host at 01:26 UTC (made up).' }],
}).notes;

test('a note about the experiment is rendered with any samples; one tied to a run only with that run', (t) => {
  t.deepEqual(notesForRun(notes, published), ['Byte counts include headers (made up).', 'Sampled on a quiet host at 01:26 UTC (made up).']);
  const rerun = notesForRun(notes, other);
  t.is(rerun.length, 2);
  t.is(rerun[0], 'Byte counts include headers (made up).');
  t.false(
    rerun.some((n) => n.includes('01:26')),
    "a rerun's report does not claim the published run's time",
  );
  t.regex(
    rerun[1]!,
    /^One note of the pipeline file about the run of sample output `ccb35f056bb2` \(how and when it was sampled\) is left out: this report renders the samples of sample output `0f8343143fed`/,
  );
});

test('samples of no known sample output leave every tied note out, and several are counted in one sentence', (t) => {
  const two = reportOptions({
    notes: [
      { sample_output: published.slice(0, 12), text: 'a' },
      { sample_output: published.slice(0, 12).toUpperCase(), text: 'b' },
    ],
  }).notes;
  t.deepEqual(notesForRun(two, published), ['a', 'b'], 'the digest is matched without regard to case');
  const none = notesForRun(two, null);
  t.is(none.length, 1);
  t.regex(none[0]!, /^2 notes .* are left out: this report renders samples whose sample stage output is not known/);
});

test('no tied note: nothing is said about left-out notes', (t) => {
  t.deepEqual(notesForRun(reportOptions({ notes: ['x'] }).notes, other), ['x']);
  t.deepEqual(notesForRun([], null), []);
});
