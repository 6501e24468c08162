// The one CSV writer (db/csv-text.ts) against its reader (db/csv-records.ts).
import test from 'ava';
import { csvRecords } from '../harness/db/csv-records.js';
import { csv, csvField } from '../harness/db/csv-text.js';

test('fields with commas, quotes and line breaks read back as written; null is the empty field', (t) => {
  const rows = [
    ['a,b', 'say "hi"', 'two\nlines', 'plain'],
    [null, 1.5, true, ''],
  ];
  const back = csvRecords(csv(['w', 'x', 'y', 'z'], rows)).map((r) => r.fields);
  t.deepEqual(back, [
    ['w', 'x', 'y', 'z'],
    ['a,b', 'say "hi"', 'two\nlines', 'plain'],
    ['', '1.5', 'true', ''],
  ]);
  t.is(csvField('say "hi"'), '"say ""hi"""');
  t.is(csvField(undefined), '');
});
