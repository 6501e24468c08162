// How wide a page lays out in a given window: the document's scroll width and
// the element reaching furthest right outside a scrolling box (a table, a plot
// view or a pre scrolls on its own), which is what makes a page scroll sideways.
import type { Page } from 'playwright-core';

export interface PageWidth {
  viewport: number;
  scrollWidth: number;
  widest: string;
}

/** The page's width at each window width, with every collapsed section opened first. */
export async function openPageWidths(page: Page, viewports: readonly number[]): Promise<PageWidth[]> {
  await page.$$eval('details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  const out: PageWidth[] = [];
  for (const viewport of viewports) {
    await page.setViewportSize({ width: viewport, height: 900 });
    await page.waitForTimeout(300);
    out.push(
      await page.evaluate((w) => {
        let widest = '';
        let right = 0;
        for (const e of document.querySelectorAll('body *')) {
          if (e.closest('.table, .view, pre')) continue;
          const r = e.getBoundingClientRect().right;
          if (r > right) [right, widest] = [r, `${e.tagName}: ${(e.textContent ?? '').slice(0, 60)}`];
        }
        return { viewport: w, scrollWidth: document.documentElement.scrollWidth, widest };
      }, viewport),
    );
  }
  return out;
}
