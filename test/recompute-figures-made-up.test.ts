// history/recompute-figures.ts on made-up samples (our own logic, so made-up
// data): a report whose figures follow from its samples.csv agrees; an edited
// P50, estimate or session count is named by row and column; a difference
// pairs only the rounds where both paths have a value, as the analysis does;
// a metric without a column of its own reads `value`; other kinds are skipped.
import test from 'ava';
import { recomputeFigures } from '../harness/history/recompute-figures.js';

const header = 'cohort,path,state,phase,round,session,ok,ready_ms,value';
/** Session s, round r: a = 10·s + r ms, b = 5 ms less; b has no round 2 of session 3; one failed launch of a. */
function samples(): string {
  const lines = [header];
  for (let s = 1; s <= 3; s++)
    for (let r = 1; r <= 2; r++) {
      lines.push(`c,a,cold,formal,${r},${s},true,${10 * s + r},`);
      if (!(s === 3 && r === 2)) lines.push(`c,b,cold,formal,${r},${s},true,${10 * s + r - 5},`);
      lines.push(`c,e,cold,formal,${r},${s},true,,${s}`);
    }
  lines.push('c,a,cold,formal,3,1,false,,');
  lines.push('c,a,cold,warmup,1,1,true,999,');
  return lines.join('\n') + '\n';
}

// a: 11 12 21 22 31 32 → P50 21.5, P95 31.75; b: 6 7 16 17 26 → P50 16
const statistics = [
  'cohort,path,state,metric,launches,failures,n,p50,p95,min,max',
  'c,a,cold,ready,7,1,6,21.500,31.750,11,32',
  'c,b,cold,ready,5,0,5,16.0,,6,26',
  'c,e,cold,held_mib,6,0,6,2,,1,3',
];
// paired rounds (5): a 11 12 21 22 31 → 21, b 16 → 5; every session a − b = 5 > 0
const differences = [
  'kind,cohort,state,metric,a,b,value,n,sessions,sessions_same_direction',
  'median_difference,c,cold,ready,a,b,5.000,5,3,3',
  'median_ratio,c,cold,ready,a,b,1.31250,5,3,3',
  'preparation,c,cold,ready,a,b,1,1,1,1',
];

test('figures that follow from the samples agree, each column counted, other kinds skipped', (t) => {
  const r = recomputeFigures({ samples: samples(), statistics: statistics.join('\n'), differences: differences.join('\n') });
  t.deepEqual(r.mismatches, []);
  t.is(r.cells, 3);
  t.is(r.differences, 2);
  t.is(r.skipped, 1);
  // a: 7 columns, b: 6 (no p95), e: 6 (no p95); two differences of 4
  t.is(r.figures, 7 + 6 + 6 + 8);
});

test('an edited P50, estimate or session count is named by file, row and column', (t) => {
  const stats = statistics.map((l) => l.replace('c,a,cold,ready,7,1,6,21.500', 'c,a,cold,ready,7,1,6,21.400'));
  const diffs = differences.map((l) => l.replace('median_difference,c,cold,ready,a,b,5.000,5,3,3', 'median_difference,c,cold,ready,a,b,5.000,6,3,2'));
  const r = recomputeFigures({ samples: samples(), statistics: stats.join('\n'), differences: diffs.join('\n') });
  t.deepEqual(
    r.mismatches.map((m) => `${m.file} ${m.row} ${m.column} ${m.published} ${m.recomputed}`),
    [
      'statistics.csv c a cold ready p50 21.400 21.5',
      'differences.csv c cold ready: a − b n 6 5',
      'differences.csv c cold ready: a − b sessions_same_direction 2 3',
    ],
  );
});

test('a figure agrees only to the digits printed: half a unit of its last digit', (t) => {
  const at = (p50: string): number =>
    recomputeFigures({ samples: samples(), statistics: [statistics[0], `c,a,cold,ready,7,1,6,${p50},,,`].join('\n'), differences: null }).mismatches.length;
  t.is(at('21.5'), 0);
  t.is(at('21.50'), 0);
  t.is(at('22'), 0); // 21.5 at no decimals: a tie, 22 or 21 by the rounding rule, both within half a unit
  t.is(at('21'), 0);
  t.is(at('20'), 1);
  t.is(at('21.49'), 1);
  t.is(at('21.6'), 1);
});

test('a cell samples.csv does not hold is skipped, not counted as agreeing', (t) => {
  const r = recomputeFigures({ samples: samples(), statistics: [statistics[0], 'c,zz,cold,ready,1,0,1,5,,5,5'].join('\n'), differences: null });
  t.is(r.cells, 0);
  t.is(r.skipped, 1);
  t.is(r.figures, 0);
});
