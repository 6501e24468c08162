// Every published page (reports/*/index.html) as a reader opens it, in
// Debian's headless Chromium: no sideways scroll in a 1400 px window nor on a
// 390 px phone with every collapsed section open, and every contents link
// lands on its heading; the same links in report.md land on a heading as
// GitHub renders the markdown (github-slugger is the slugger GitHub's
// renderer follows).
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import GithubSlugger from 'github-slugger';
import { chromium, type BrowserContext } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { inlinePlain } from '../harness/document/inline-html.js';
import { openPageWidths, type PageWidth } from './helpers/page-width.js';
import { tempDir } from './helpers/cli.js';

const root = process.cwd();
const pages = readdirSync(join(root, 'reports'))
  .filter((d) => existsSync(join(root, 'reports', d, 'index.html')))
  .sort();

const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface PageWidths {
  widths: PageWidth[];
  anchors: { href: string; target: boolean }[];
}

const results = new Map<string, PageWidths>();
let context: BrowserContext | null = null;
let profile = '';

test.before(async () => {
  profile = tempDir('benchgraph-pages-');
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: chromiumArgs, headless: true, offline: true });
  for (const name of pages) {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(join(root, 'reports', name, 'index.html')).href);
    await page.waitForSelector('body[data-views-done]', { timeout: 60_000 }).catch(() => null);
    const anchors = await page.$$eval('nav.contents a', (as) =>
      as.map((a) => ({ href: a.getAttribute('href') ?? '', target: !!document.getElementById(decodeURIComponent((a.getAttribute('href') ?? '').slice(1))) })),
    );
    const widths = await openPageWidths(page, [1400, 390]);
    results.set(name, { widths, anchors });
    await page.close();
  }
});

test.after.always(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('there are published pages to check', (t) => {
  t.true(pages.length >= 3, pages.join(', '));
});

for (const name of pages) {
  test(`reports/${name}/index.html does not scroll sideways at 1400 px nor at 390 px, every section open`, (t) => {
    const r = results.get(name)!;
    for (const w of r.widths) t.true(w.scrollWidth <= w.viewport, `${w.viewport} px window: page ${w.scrollWidth} px wide (widest: ${w.widest})`);
  });

  test(`reports/${name}/index.html: every contents link lands on its heading`, (t) => {
    const r = results.get(name)!;
    t.true(r.anchors.length > 0);
    t.deepEqual(
      r.anchors.filter((a) => !a.target).map((a) => a.href),
      [],
    );
  });

  const md = join(root, 'reports', name, 'report.md');
  if (existsSync(md)) {
    test(`reports/${name}/report.md: every in-page link lands on a heading as GitHub renders the markdown, and every section named in quotes is a link`, (t) => {
      const text = readFileSync(md, 'utf8');
      const slugger = new GithubSlugger();
      const ids = new Set<string>();
      const titles: string[] = [];
      let fenced = false;
      for (const line of text.split('\n')) {
        if (line.startsWith('```')) fenced = !fenced;
        const m = !fenced && /^#{1,6} (.+?)\s*#*$/.exec(line);
        if (m) {
          ids.add(slugger.slug(inlinePlain(m[1]!)));
          titles.push(m[1]!, m[1]!.replace(/^Appendix: /, ''));
        }
      }
      const links = [...text.matchAll(/\]\(#([^)\s]+)\)/g)].map((m) => decodeURIComponent(m[1]!));
      t.deepEqual(
        links.filter((l) => !ids.has(l)),
        [],
      );
      // a quoted title not inside link text: "Title" with no [ before it
      const unlinked = titles.filter((title) => new RegExp(`(?<!\\[)"${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).test(text));
      t.deepEqual(unlinked, []);
    });
  }
}
