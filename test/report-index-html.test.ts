import test from 'ava';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { runReport } from './helpers/report-run.js';
import { fixed } from '../harness/report/format-number.js';

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
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.goto(pathToFileURL(join(reportDir, 'index.html')).href);
    await page.waitForSelector('body[data-views-done]', { timeout: 60_000 });
    const views = await page.$$eval('.view', (els) =>
      els.map((el) => ({
        file: el.getAttribute('data-file') ?? '',
        svgChildren: el.querySelector('svg')?.querySelectorAll('path, line, text, rect').length ?? 0,
        canvas: el.querySelectorAll('canvas').length,
      })),
    );
    const firstTable = await page.$$eval('table:first-of-type tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
    );
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
    result = { views, consoleErrors, requests, firstTable, tooltip };
  } finally {
    await context.close();
  }
});
test.after.always(async () => {
  if (dir && !process.env['BENCHGRAPH_KEEP_TEST_DIR']) await rm(dir, { recursive: true, force: true });
});

test('index.html shows every plot of the report as a view that rendered a non-empty SVG', (t) => {
  t.deepEqual(result.views.map((v) => v.file).sort(), ['content-bytes.svg', 'differences.svg', 'ecdf-numpy.svg', 'ecdf-shell.svg', 'rounds.svg']);
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

test('the numbers in the first table of index.html equal statistics.csv', async (t) => {
  const csv = (await readFile(join(reportDir, 'statistics.csv'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const head = csv[0]!;
  const col = (r: string[], name: string): string => r[head.indexOf(name)]!;
  const [header, ...rows] = result.firstTable;
  t.deepEqual(header!.slice(0, 3), ['path', 'state', 'metric']);
  const cohort = 'shell';
  t.true(rows.length >= 6);
  for (const r of rows) {
    const s = csv.find((c) => col(c, 'cohort') === cohort && col(c, 'path') === r[0] && col(c, 'state') === r[1] && col(c, 'metric') === r[2]);
    t.truthy(s, r.join(' '));
    const one = (v: string): string => fixed(Number(v), 1);
    t.is(r[3], `${col(s!, 'n')} of ${col(s!, 'launches')}`);
    if (col(s!, 'split') === 'false') t.is(r[5], one(col(s!, 'p50')));
    t.is(r[7], one(col(s!, 'min')));
    t.is(r[8], one(col(s!, 'max')));
  }
});

test('hovering a launch shows its round, session and id', (t) => {
  t.regex(result.tooltip, /round/);
  t.regex(result.tooltip, /session/);
  t.regex(result.tooltip, /launch id\s*[LW]L?\d+/);
});

test('a screenshot of the page is saved in the test folder', async (t) => {
  t.true((await stat(join(dir, 'index.png'))).size > 20_000);
});
