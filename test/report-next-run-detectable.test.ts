// The report's Next run sentence states what the planned design can see: the
// range over cells of the smallest difference it would detect 80% of the time.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, smokeProject } from './helpers/cli.js';

test('a report with a reachable next-run plan states the smallest difference that design would detect in 80% of runs', async (t) => {
  t.timeout(120_000);
  const dir = smokeProject();
  const r = await runCli(['run', '--set', 'design.sessions=3', '--set', 'analysis.next_run.relative_half_width=0.5'], dir);
  t.is(r.code, 0, r.stderr);
  const report = readFileSync(join(dir, 'reports', 'smoke', 'report.md'), 'utf8');
  t.regex(report, /Next run: for a 50\.0% half width/);
  t.regex(report, /the smallest true difference from a like cell that would be detected in 80% of runs is [\d.]+( to [\d.]+)? ms/);
});
