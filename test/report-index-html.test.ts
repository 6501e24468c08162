import test from 'ava';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { runReport } from './helpers/report-run.js';
import { openPageWidths, type PageWidth } from './helpers/page-width.js';

// Debian's chromium, headless, offline; playwright-core never downloads a browser.
const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface PageResult {
  views: { file: string; svgChildren: number; canvas: number }[];
  consoleErrors: string[];
  requests: string[];
  firstTable: string[][];
  tooltip: string;
  /** Page width at a 1400 px window, and at a 390 px phone, with every collapsed section opened. */
  scrollWidth: number;
  openWidths: PageWidth[];
  /** Every contents link and whether its target exists. */
  anchors: { href: string; target: boolean }[];
  /** The first element of the body after the title, by tag. */
  firstTableBeforeContents: boolean;
  /** Cohorts drawn in the ECDF-free differences view before and after choosing one cohort. */
  cohortsBefore: number;
  cohortsAfter: number;
  collapsedAppendix: number;
}

let dir = '';
let reportDir = '';
let result: PageResult;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-html-'));
  ({ reportDir } = await runReport(dir));
  const userDataDir = join(dir, 'chromium-profile');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: chromiumArgs,
    headless: true,
    offline: true,
  });
  try {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('request', (r) => requests.push(r.url()));
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(join(reportDir, 'index.html')).href);
    await page.waitForSelector('body[data-views-done]', { timeout: 60_000 });
    const views = await page.$$eval('.view', (els) =>
      els.map((el) => ({
        file: el.getAttribute('data-file') ?? '',
        svgChildren: el.querySelector('svg')?.querySelectorAll('path, line, text, rect').length ?? 0,
        canvas: el.querySelectorAll('canvas').length,
      })),
    );
    const firstTable = await page.$eval('table', (t) =>
      [...t.querySelectorAll('tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
    );
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    const anchors = await page.$$eval('nav.contents a', (as) =>
      as.map((a) => ({ href: a.getAttribute('href') ?? '', target: !!document.getElementById((a.getAttribute('href') ?? '').slice(1)) })),
    );
    const firstTableBeforeContents = await page.evaluate(() => {
      const t = document.querySelector('table');
      const n = document.querySelector('nav.contents');
      return !!t && !!n && !!(t.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    const collapsedAppendix = await page.$$eval('details', (ds) => ds.filter((d) => !(d as HTMLDetailsElement).open).length);
    const facetLabels = (): Promise<number> =>
      page.$$eval('.view[data-file="differences.svg"] svg text', (ts) => ts.filter((x) => x.textContent === 'shell' || x.textContent === 'numpy').length);
    const cohortsBefore = await facetLabels();
    await page.selectOption('#filter-cohort', 'shell');
    await page.waitForFunction(() => document.body.getAttribute('data-filter')?.includes('shell'));
    await page.waitForTimeout(1500);
    const cohortsAfter = await facetLabels();
    await page.selectOption('#filter-cohort', '');
    await page.waitForTimeout(1500);
    // hover the first point of the run-order view
    const point = page.locator('.view[data-file="rounds.svg"] svg .mark-symbol path').first();
    await point.hover({ force: true });
    await page.waitForSelector('#vg-tooltip-element.visible', { timeout: 10_000 }).catch(() => null);
    const tooltip =
      (await page
        .locator('#vg-tooltip-element')
        .textContent()
        .catch(() => '')) ?? '';
    await page.screenshot({ path: join(dir, 'index.png'), fullPage: true });
    const openWidths = await openPageWidths(page, [1400, 390]);
    if (process.env['BENCHGRAPH_KEEP_TEST_DIR']) await page.screenshot({ path: join(dir, 'index-390.png'), fullPage: true });
    result = {
      views,
      consoleErrors,
      requests,
      firstTable,
      tooltip,
      scrollWidth,
      openWidths,
      anchors,
      firstTableBeforeContents,
      cohortsBefore,
      cohortsAfter,
      collapsedAppendix,
    };
  } finally {
    await context.close();
  }
});
test.after.always(async () => {
  if (dir && !process.env['BENCHGRAPH_KEEP_TEST_DIR']) await rm(dir, { recursive: true, force: true });
});

test('index.html shows every plot of the report as a view that rendered a non-empty SVG', (t) => {
  const files = result.views.map((v) => v.file).sort();
  for (const f of ['content-bytes.svg', 'differences.svg', 'ecdf-numpy.svg', 'ecdf-shell.svg', 'position.svg', 'rounds.svg']) t.true(files.includes(f), f);
  for (const v of result.views) t.true(v.svgChildren > 20 || v.canvas > 0, v.file);
});

test('index.html logs no console error', (t) => {
  t.deepEqual(result.consoleErrors, []);
});

test('index.html loads nothing but itself', (t) => {
  t.deepEqual(
    result.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:')),
    [],
  );
  t.is(result.requests.filter((u) => u.startsWith('file://')).length, 1);
});

test('the page opens with the summary table, then a contents list whose every link has its heading', (t) => {
  t.deepEqual(result.firstTable[0]!.slice(0, 2), ['Ready, a − b: ms [95% CI], P50 ratio a/b', 'shell cold']);
  t.true(result.firstTable.some((row) => row[0] === 'lowest Ready P50'));
  t.true(result.firstTableBeforeContents);
  t.true(result.anchors.length >= 5);
  t.deepEqual(
    result.anchors.filter((a) => !a.target),
    [],
  );
  t.true(result.collapsedAppendix >= 3, 'the appendix sections are collapsed');
});

test('the page has no horizontal scroll in a 1400 px window', (t) => {
  t.true(result.scrollWidth <= 1400, `${result.scrollWidth} px`);
});

test('with every collapsed section open, the page does not scroll sideways at 1400 px nor on a 390 px phone', (t) => {
  t.is(result.openWidths.length, 2);
  for (const w of result.openWidths) t.true(w.scrollWidth <= w.viewport, `${w.scrollWidth} px at ${w.viewport} px, widest: ${w.widest}`);
});

test('the cohort selector redraws the charts with the chosen cohort only', (t) => {
  t.true(result.cohortsBefore >= 2, `${result.cohortsBefore}`);
  t.true(result.cohortsAfter >= 1 && result.cohortsAfter < result.cohortsBefore, `${result.cohortsBefore} -> ${result.cohortsAfter}`);
});

test('hovering a launch shows its round, session, position, previous path and id', (t) => {
  t.regex(result.tooltip, /round/);
  t.regex(result.tooltip, /session/);
  t.regex(result.tooltip, /position in round/);
  t.regex(result.tooltip, /previous path/);
  t.regex(result.tooltip, /launch id\s*[LW]L?\d+/);
});

test('a screenshot of the page is saved in the test folder', async (t) => {
  t.true((await stat(join(dir, 'index.png'))).size > 20_000);
});
