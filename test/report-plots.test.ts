import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderSvg } from '../harness/publish/plot-adapter.js';
import { runReport } from './helpers/report-run.js';
import { markSets, truncatedTexts } from './helpers/svg-checks.js';

const expectedPlots = ['content-bytes.svg', 'differences.svg', 'ecdf-numpy.svg', 'ecdf-shell.svg', 'position.svg', 'rounds.svg'];

let dir = '';
let svgs = new Map<string, string>();

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-plots-'));
  const { reportDir } = await runReport(dir);
  for (const f of (await readdir(reportDir)).filter((x) => x.endsWith('.svg'))) svgs.set(f, await readFile(join(reportDir, f), 'utf8'));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the report renders a differences plot, an ECDF per cohort, a position and a run-order plot and a bytes plot (no sessions, marks or splits here: no plot of them)', (t) => {
  t.deepEqual([...svgs.keys()].sort(), expectedPlots);
});

test('no plot has a truncated label (no ellipsis in any text node)', (t) => {
  for (const [file, svg] of svgs) t.deepEqual(truncatedTexts(svg), [], file);
});

test('every data-mark set of every plot draws at least one item', (t) => {
  for (const [file, svg] of svgs) {
    const m = markSets(svg);
    t.true(m.count > 0, `${file} has no data mark`);
    t.deepEqual(m.empty, [], file);
  }
});

test('the published default report: no plot has a truncated label, and each is at most 1,110 px wide', async (t) => {
  const folder = join('reports', 'lazy-startup');
  const files = (await readdir(folder)).filter((f) => f.endsWith('.svg'));
  t.true(files.length >= 8, files.join(', '));
  for (const f of files) {
    const svg = await readFile(join(folder, f), 'utf8');
    t.deepEqual(truncatedTexts(svg), [], f);
    const width = Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1]);
    t.true(width <= 1110, `${f}: ${width} px`);
  }
});

test('the truncation check finds the ellipsis Vega puts on a label longer than its default limit', async (t) => {
  const long = 'numpy · cold · ready · docker − lazy, a label far longer than the default axis label limit of 180 pixels';
  const svg = await renderSvg({
    data: { values: [{ label: long, v: 1 }] },
    mark: 'point',
    encoding: { y: { field: 'label', type: 'nominal' }, x: { field: 'v', type: 'quantitative' } },
  });
  t.true(truncatedTexts(svg).length > 0);
});

test('the empty-mark check finds a mark set without data', async (t) => {
  const svg = await renderSvg({ data: { values: [] }, mark: 'point', encoding: { x: { field: 'v', type: 'quantitative' } } });
  t.true(markSets(svg).empty.length > 0);
});

test('every plot converts to a non-empty PNG with rsvg-convert', async (t) => {
  for (const file of svgs.keys()) {
    const png = join(dir, file.replace(/\.svg$/, '.png'));
    execFileSync('rsvg-convert', ['-o', png, join(dir, 'report-out', file)]);
    const head = (await readFile(png)).subarray(0, 8);
    t.true(head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), file);
    t.true((await stat(png)).size > 5000, file);
  }
});
