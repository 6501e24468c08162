// The report on the samples of the default run published before the settle
// and the balanced order (archived in reports/lazy-startup/runs/), re-analysed by this
// checkout (import-samples, analyze, report): the carryover section, the order
// effect flag in the summary, the CSVs and every conclusion using a flagged
// cell, and the split cells never presented by their single P50.
import test from 'ava';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fivePathDesignConfig } from './helpers/published-design.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import importSamples from '../stages/import-samples.js';
import analyze from '../stages/analyze.js';
import report from '../stages/report.js';
import { stageContext, stageInput } from './helpers/stage-context.js';

const rendered = (async () => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-carryover-report-'));
  try {
    // the design the archived run sampled with (test/helpers/published-design.ts)
    const cfg = fivePathDesignConfig();
    const [imp, ana, rep] = ['import', 'analyze', 'report'].map((k) => join(dir, k));
    for (const d of [imp, ana, rep]) await mkdir(d!);
    await importSamples.run({
      ...stageContext(dir, 'import', imp!, {}, cfg, { file: 'reports/lazy-startup/runs/2026-12-01-25bf80d30cc6/samples.csv' }),
      pipelineDir: process.cwd(),
    });
    const samples = stageInput('import', imp!, 'a');
    await analyze.run(stageContext(dir, 'analyze', ana!, { import: samples }, cfg));
    await report.run(stageContext(dir, 'report', rep!, { import: samples, analyze: stageInput('analyze', ana!, 'b') }, cfg));
    const read = (f: string): Promise<string> => readFile(join(rep!, f), 'utf8');
    return { md: await read('report.md'), statistics: await read('statistics.csv'), differences: await read('differences.csv') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
})();

test('the published samples give a carryover section whose cold docker rows are flagged order effect', async (t) => {
  const { md } = await rendered;
  const s = md.slice(md.indexOf('## Appendix: Carryover detail'), md.indexOf('\n## ', md.indexOf('## Appendix: Carryover detail') + 5));
  t.true(
    s.includes('| path | state | launches by position | median first / last | position effect | median by previous path (n) | predecessor effect | verdict |'),
  );
  t.regex(s, /\| docker \| cold \| 0: 4, 1: 6, 2: 5, 3: 7, 4: 8 \| .* \| ×1\.42 \[[\d.]+, [\d.]+\] \| .* \| \*\*order effect\*\*: position/);
  t.regex(s, /\| docker \| cold \| 0: 5, 1: 4, 2: 5, 3: 6, 4: 10 \| .* \| ×1\.81 /);
  t.regex(s, /\| gvisor-lazy \| cold \| .* \| within size \|/);
  // gvisor-full cold: after docker 2843.6 ms, after lazy 5946.8 ms, but the interval includes 1
  t.regex(s, /\| gvisor-full \| cold \| .* \| unresolved \|/);
});

test('the summary carries the order effect of the cold docker cells, and every difference with a flagged cell says so', async (t) => {
  const { md } = await rendered;
  const opening = md.slice(0, md.indexOf('\n## '));
  t.regex(opening, /^\d+ Ready cells depend on their position in the round or the path before: [^\n]*numpy docker cold[^\n]*shell docker cold/m);
  // the summary: a row per comparison, a column per cohort and state
  const lines = opening.split('\n');
  const header = lines.find((l) => l.startsWith('| Ready, a − b'))!.split(' | ');
  const row = lines.find((l) => l.startsWith('| docker − lazy |'))!.split(' | ');
  for (const column of ['shell cold', 'numpy cold']) t.regex(row[header.indexOf(column)]!, /, order effect(; ‡ split: .*)?$/);
  const every = md.slice(md.indexOf('## Appendix: Every difference'));
  for (const line of every.split('\n').filter((l) => /^\| (shell|numpy) \| cold \| ready \| docker − lazy \|/.test(l))) t.regex(line, /; order effect \|$/);
});

test('the three-mode numpy cold oci-full cell is given by its clusters, never by its single P50 of 5036.3 ms, in the summary and the per-cell detail', async (t) => {
  const { md } = await rendered;
  const main = md.slice(0, md.indexOf('## Appendix'));
  t.false(main.includes('5036.3'));
  const times = main.slice(main.indexOf('## Start-up times'));
  const numpy = times.slice(times.indexOf('**numpy**'));
  t.regex(numpy, /\| oci-full \| 3444\.8 \(50\.0%\) \/ 6938\.4 \(33\.3%\) \/ 10333\.1 \(16\.7%\)( †)? \|/);
  t.regex(md, /The cluster rule split \d+ of the 20 cells/);
});

test('statistics.csv and differences.csv carry the effects and the order effect flag as columns', async (t) => {
  const { statistics, differences } = await rendered;
  const stats = parseCsvTable(statistics).rows;
  const cell = stats.find((r) => r['cohort'] === 'shell' && r['path'] === 'docker' && r['state'] === 'cold' && r['metric'] === 'ready')!;
  t.is(cell['order_effect'], 'true');
  t.is(Number(cell['position_effect']).toFixed(2), '1.42');
  t.true(Number(cell['position_low']) > 1);
  const lazy = stats.find((r) => r['cohort'] === 'shell' && r['path'] === 'lazy' && r['state'] === 'cold' && r['metric'] === 'ready')!;
  t.is(lazy['order_effect'], 'false');
  t.is(stats.find((r) => r['metric'] === 'content_bytes')!['order_effect'], '');
  const diff = parseCsvTable(differences).rows.find(
    (r) => r['cohort'] === 'shell' && r['state'] === 'cold' && r['metric'] === 'ready' && r['a'] === 'docker' && r['b'] === 'lazy',
  )!;
  t.is(diff['order_effect'], 'true');
});
