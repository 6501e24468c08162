// The sandbox-effects Method says when the launches ran from the samples
// themselves, never from a hand-written note: on the published samples.csv
// the sentence gives the first and last started_at, and the span between.
import test from 'ava';
import { launchSpanSentence } from '../harness/sandbox/effect-phrases.js';
import { publishedCsv } from './helpers/published-report.js';

test('the launch span of the published sandbox-effects samples is their first and last started_at', (t) => {
  const rows = publishedCsv('sandbox-effects', 'samples.csv');
  const starts = rows.map((r) => r['started_at']!).filter(Boolean);
  const sorted = [...starts].sort();
  const s = launchSpanSentence(starts)!;
  t.log(s);
  t.true(s.includes(sorted[0]!.replace('T', ' ').slice(0, 19)), s);
  t.true(s.includes(sorted[sorted.length - 1]!.slice(11, 19)), s);
  const span = Math.round((Date.parse(sorted[sorted.length - 1]!) - Date.parse(sorted[0]!)) / 1000);
  t.true(s.includes(`${Math.floor(span / 60)} min ${span % 60} s`), s);
  t.true(s.includes(`Its ${starts.length} launches`));
});

test('fewer than two timestamps give no sentence', (t) => {
  t.is(launchSpanSentence([]), null);
  t.is(launchSpanSentence(['2026-12-03T18:15:51.000Z', null]), null);
});
