import test from 'ava';
import { UserError } from '../harness/errors.js';
import { parseMeasureFlags } from '../harness/cli/measure-command.js';
import { measure } from '../harness/launch/measure.js';

test('measure runs the warmup and the runs and summarizes only the runs', async (t) => {
  const { samples, summary } = await measure({ argv: ['sh', '-c', 'echo MARKER'], runs: 5, warmup: 2, timeoutMs: 5000 });
  t.is(samples.length, 5);
  t.true(samples.every((s) => !s.warmup && s.ok));
  t.is(summary.failures, 0);
  t.true(summary.readyMs!.min <= summary.readyMs!.median && summary.readyMs!.median <= summary.readyMs!.p95);
  t.true(summary.readyMs!.p95 <= summary.readyMs!.max);
  t.true(summary.readyMs!.median <= summary.completionMs!.median);
});

test('measure counts a run that exits non-zero as a failure', async (t) => {
  const { summary } = await measure({ argv: ['sh', '-c', 'echo GO; exit 1'], runs: 2, warmup: 0, marker: 'GO', timeoutMs: 5000 });
  t.is(summary.failures, 2);
  t.is(summary.readyMs, null);
  t.regex(summary.firstFailure!, /exit code 1/);
});

test('measure flags parse with defaults and the command after --', (t) => {
  t.like(parseMeasureFlags(['--runs', '20', '--warmup=3', '--json', '--', 'sh', '-c', 'echo MARKER']), {
    runs: 20,
    warmup: 3,
    json: true,
    marker: 'MARKER',
    timeoutS: 60,
    argv: ['sh', '-c', 'echo MARKER'],
  });
});

test('a bad measure flag is a user error naming the flag', (t) => {
  for (const [args, flag] of [
    [['--runs', '0', '--', 'true'], '--runs'],
    [['--timeout', 'soon', '--', 'true'], '--timeout'],
    [['--frobnicate', '--', 'true'], '--frobnicate'],
    [['--runs', '3'], '--'],
    [['--marker'], '--marker'],
  ] as const) {
    const e = t.throws(() => parseMeasureFlags([...args]));
    t.true(e instanceof UserError);
    t.is((e as UserError).place.key, flag);
  }
});
