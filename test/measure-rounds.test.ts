// Pure: how many rounds run without --runs, and the progress line's ETA.
import test from 'ava';
import { formatMeasureProgress } from '../harness/measure/progress-line.js';
import { estimateRounds, TARGET_MS_PER_COMMAND } from '../harness/measure/run-measurement.js';

test('without --runs, rounds fill the target time per command', (t) => {
  // Two commands of 10 ms each: a 20 ms round, 10 ms per command.
  t.is(estimateRounds(20, 2, 10, null), TARGET_MS_PER_COMMAND / 10);
});

test('the estimated rounds never go below --min-runs or above --max-runs', (t) => {
  t.is(estimateRounds(10_000, 1, 10, null), 10);
  t.is(estimateRounds(0.5, 1, 10, 50), 50);
});

test('the progress line shows the launches done and an ETA from their pace', (t) => {
  const line = formatMeasureProgress({ phase: 'formal', round: 3, rounds: 10, launchesDone: 30, launchesTotal: 100, failures: 0, elapsedMs: 60_000 });
  t.is(line, 'formal round 3/10 · launches 30/100 · ETA 2m20s');
});

test('before the number of rounds is known, the ETA says it is estimating', (t) => {
  t.regex(
    formatMeasureProgress({ phase: 'formal', round: 1, rounds: null, launchesDone: 1, launchesTotal: null, failures: 1, elapsedMs: 5 }),
    /launches 1\/\? · failures 1 · ETA estimating$/,
  );
});
