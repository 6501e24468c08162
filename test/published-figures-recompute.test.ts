// Every published report's figures follow from its own samples.csv (issue 44
// item 6): the cells of statistics.csv and the differences of
// differences.csv, recomputed by history/recompute-figures.ts, the check
// `pipeline audit` runs in a fresh clone.
import test from 'ava';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { recomputeFigures } from '../harness/history/recompute-figures.js';

const reports = join(projectRoot(), 'reports');
const published = readdirSync(reports).filter((e) => existsSync(join(reports, e, 'samples.csv')) && existsSync(join(reports, e, 'statistics.csv')));

test('the six published experiments have samples.csv and statistics.csv', (t) => {
  for (const e of ['lazy-startup', 'commit-diff', 'image-reads', 'restore-sweep', 'sandbox-effects', 'burst-startup']) t.true(published.includes(e), e);
});

for (const e of published) {
  test(`${e}: every cell and difference figure recomputes from samples.csv`, (t) => {
    const read = (f: string): string => readFileSync(join(reports, e, f), 'utf8');
    const r = recomputeFigures({ samples: read('samples.csv'), statistics: read('statistics.csv'), differences: read('differences.csv') });
    t.deepEqual(r.mismatches, []);
    t.true(r.cells >= 10, `${r.cells} cells`);
    t.true(r.differences >= 10, `${r.differences} differences`);
    // n and P50 of every cell at least, and four figures of every difference
    t.true(r.figures >= 2 * r.cells + 4 * r.differences, `${r.figures} figures`);
  });
}
