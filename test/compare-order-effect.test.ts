// pipeline compare and the issue-18 columns: order_effect (differences.csv,
// statistics.csv) and disk.csv are read by name when present; reports written
// before them still read.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareReports, summaryLine } from '../harness/compare/compare-reports.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { renderComparisonText, renderReproductionMd } from '../harness/compare/render-comparison.js';
import { tempDir } from './helpers/cli.js';

test('a report written before order_effect and disk.csv existed (the archived pre-settle run) still reads, without flags or disks', (t) => {
  const r = readPublishedReport('reports/lazy-startup/runs/2026-12-01-25bf80d30cc6');
  t.true(r.differences.length > 0);
  t.true(r.differences.every((d) => d.orderEffect === null));
  t.true(r.cells.every((c) => c.orderEffect === null));
  t.deepEqual(r.disks, []);
  const text = renderComparisonText(compareReports(r, r));
  t.false(text.includes('order effect'));
});

/** A made-up report folder in the new format: docker − lazy cold detected (flagged when `flagged`), one cell P50 and two disk probes. */
function folder(name: string, detected: boolean, flagged: boolean, p50: string, writeMBps: string): string {
  const dir = join(tempDir('benchgraph-compare-order-'), name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'differences.csv'),
    'kind,cohort,state,metric,a,b,value,low,high,detected,order_effect\n' +
      `median_difference,shell,cold,ready,docker,lazy,7000,6000,8000,${detected},${flagged}\n` +
      'median_difference,shell,warm,ready,docker,lazy,160,150,170,true,false\n',
  );
  writeFileSync(
    join(dir, 'statistics.csv'),
    'cohort,path,state,metric,unit,p50,order_effect\n' + `shell,docker,cold,ready,ms,${p50},${flagged}\n` + 'shell,lazy,cold,ready,ms,183,false\n',
  );
  writeFileSync(
    join(dir, 'disk.csv'),
    'session,attempt,moment,bytes,write_mb_s,read_mb_s\n' + `1,1,start,67108864,${writeMBps},1500\n` + `1,1,end,67108864,${writeMBps},1400\n`,
  );
  return dir;
}

test('a conclusion lost in the candidate that the baseline flagged order effect is counted as warned about, with both flags shown (made-up reports)', (t) => {
  const r = compareReports(readPublishedReport(folder('base', true, true, '7800', '800')), readPublishedReport(folder('cand', false, false, '4000', '300')));
  t.is(r.lost, 1);
  t.is(r.warnedByOrderEffect, 1);
  t.regex(summaryLine(r), /the baseline flagged 1 of the lost or changed ones order effect/);
  const c = r.conclusions.find((x) => x.state === 'cold')!;
  t.is(c.baselineOrderEffect, true);
  t.is(c.candidateOrderEffect, false);
  const md = renderReproductionMd(r, 'base', 'cand');
  t.regex(md, /\| shell cold ready: docker − lazy \| docker > lazy \| (not detected|undecided) \| lost \| held \| yes \| no \|/);
});

test('the cells that moved are listed with both runs disk figures beside them (made-up reports)', (t) => {
  const r = compareReports(readPublishedReport(folder('base', true, true, '7800', '800')), readPublishedReport(folder('cand', true, true, '4000', '300')));
  const text = renderComparisonText(r);
  t.regex(text, /Cells that moved \(P50 ratio outside 0\.80–1\.25\): shell docker cold ready ×0\.51\./);
  t.regex(text, /baseline S1 start 800\/1500, end 800\/1400; candidate S1 start 300\/1500, end 300\/1400\./);
  t.false(text.includes('shell lazy cold ready ×'));
});
