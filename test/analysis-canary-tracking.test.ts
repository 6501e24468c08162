import test from 'ava';
import { canaryLevels, canaryTracking, trackingFit } from '../harness/analysis/canary-tracking.js';
import type { CanaryResult } from '../harness/analysis/canary-statistics.js';
import { trackingBlocks } from '../harness/report/canary-section.js';
import { renderMarkdown } from '../harness/document/render-markdown.js';
import type { Block } from '../harness/document/document-model.js';

const markdown = (blocks: Block[]): string => renderMarkdown({ title: 't', opening: blocks, sections: [], appendix: [] });

/** Made-up canary: one piece whose session medians are `factors` × 100 ms, the run median 100 ms. */
function canary(factors: number[]): CanaryResult {
  return {
    metric: 'completion',
    pieces: ['cpu'],
    sessions: factors.map((f, i) => ({ session: i + 1, pieces: [{ piece: 'cpu', n: 5, failures: 0, medianMs: 100 * f, lowMs: 99 * f, highMs: 101 * f }] })),
    run: [{ piece: 'cpu', n: 5 * factors.length, sessions: factors.length, failures: 0, medianMs: 100, lowMs: 99, highMs: 101 }],
    confidence: 0.95,
    resamples: 1000,
  };
}

type Cells = Parameters<typeof canaryTracking>[0]['cells'];
/** Made-up Ready cells: `follows` moves with the canary, `flat` does not. */
function cells(factors: number[]): Cells {
  const wobble = [1.004, 0.997, 1.002, 0.998, 1.001];
  const cell = (path: string, p50: (f: number, i: number) => number) =>
    ({
      cohort: 'c',
      path,
      state: 'warm',
      metric: 'ready',
      sessions: factors.map((f, i) => ({ session: i + 1, n: 10, p50Ms: p50(f, i) })),
    }) as unknown as Cells[number];
  return [cell('follows', (f, i) => 200 * f * wobble[i]!), cell('flat', (_, i) => 300 * wobble[(i + 2) % 5]!)];
}

test('a cell that moves with the canary has a slope near 1 with an interval above 0; one that does not is not resolved (made-up sessions)', (t) => {
  const f = [1, 1.1, 0.95, 1.05, 1.15];
  const r = canaryTracking({ canary: canary(f), cells: cells(f) })!;
  t.deepEqual(
    r.levels.map((l) => +Math.exp(l.level).toFixed(3)),
    f,
  );
  const [follows, flat] = r.cells;
  t.is(follows!.reading, 'follows');
  t.true(Math.abs(follows!.slope! - 1) < 0.1 && follows!.low! > 0.8 && follows!.high! < 1.2, JSON.stringify(follows));
  t.true(follows!.correlation! > 0.99);
  t.is(flat!.reading, 'not resolved');
  t.true(flat!.low! < 0 && flat!.high! > 0);
});

test('the slope and its interval are the least-squares line with a t interval on n − 2 degrees of freedom (hand-computed)', (t) => {
  // x = 0, 1, 2, 3; y = 0, 2, 1, 3: slope 0.8, residuals −0.3 ... rss = 1.8, se = √(1.8 / 2 / 5) = 0.4243; t(0.975, 2) = 4.3027
  const r = trackingFit([0, 1, 2, 3], [0, 2, 1, 3], 0.95);
  t.true(Math.abs(r.slope! - 0.8) < 1e-12);
  t.true(Math.abs(r.high! - (0.8 + 4.302653 * 0.424264)) < 1e-4, `${r.high}`);
  t.true(Math.abs(r.correlation! - 0.8) < 1e-12);
});

test('with 2 sessions, or a canary that did not move, every cell says it cannot tell (made-up sessions)', (t) => {
  const two = canaryTracking({ canary: canary([1, 1.1]), cells: cells([1, 1.1]) })!;
  t.true(two.cells.every((c) => c.slope === null && c.why === 'cannot tell with 2 sessions'));
  t.regex(markdown(trackingBlocks(two)), /How the cells follow the canary: cannot tell with 2 sessions/);
  const still = canaryTracking({ canary: canary([1, 1, 1]), cells: cells([1, 1, 1]) })!;
  t.regex(still.cells[0]!.why!, /the canary did not move between the 3 sessions/);
  t.is(canaryTracking({ cells: cells([1, 1, 1]) }), null);
});

test('the report gives one row per Ready cell with its slope, interval and reading (made-up sessions)', (t) => {
  const f = [1, 1.1, 0.95, 1.05, 1.15];
  const md = markdown(trackingBlocks(canaryTracking({ canary: canary(f), cells: cells(f) })));
  t.regex(md, /1 of 2 cells follow it \(interval above 0\), 0 move against it, 1 not resolved/);
  t.regex(md, /\| c \| follows \| warm \| 5 \| (0\.9\d|1\.0\d) \[/);
  t.is(canaryLevels(canary([1, 1.1])).length, 2);
});
