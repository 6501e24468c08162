// How a knee is worded (our own wording logic, made-up knees): a knee found
// names its level and, when the per-level intervals leave it open, the range
// of levels it lies in; no knee never says where "it lies".
import test from 'ava';
import { kneeText } from '../harness/burst/burst-document.js';

const base = { path: 'crun', thresholdRatio: 1.18, largestLevel: 3 };

test('no knee up to the largest N, whose interval reaches the margin, says the knee may be there', (t) => {
  t.is(
    kneeText({ ...base, level: null, earliest: 3, latest: null }),
    'no knee up to N = 3 (P50 above ×1.18 of N = 1; its interval reaches that from N = 3, so the knee may be there)',
  );
  t.is(kneeText({ ...base, level: null, earliest: null, latest: null }), 'no knee up to N = 3 (P50 above ×1.18 of N = 1)');
});

test('a knee names its level, and the range of levels where the intervals leave it open', (t) => {
  t.is(kneeText({ ...base, largestLevel: 32, level: 4, earliest: 2, latest: 4 }), 'knee at N = 4 (P50 above ×1.18 of N = 1; it lies from N = 2 to N = 4)');
  t.is(kneeText({ ...base, largestLevel: 32, level: 2, earliest: 2, latest: 2 }), 'knee at N = 2 (P50 above ×1.18 of N = 1)');
});
