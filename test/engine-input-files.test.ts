import test from 'ava';
import { writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, stagesRan, tempDir } from './helpers/cli.js';

const HEADER = 'experiment,cohort,path,state,phase,round,order_in_round,launch_id,ready_ms,completion_ms,ok,started_at';

function row(path: string, state: string, round: number, ms: number): string {
  return `imp,c,${path},${state},formal,${round},0,${path}-${state}-${round},${ms},${ms + 1},true,2026-01-01T00:00:00Z`;
}

test('editing an imported CSV reruns import-samples and what follows it', async (t) => {
  const dir = tempDir('benchgraph-import-');
  const lines = [HEADER];
  for (let r = 1; r <= 5; r++)
    for (const [p, ms] of [
      ['a', 10 + r],
      ['b', 20 + r],
    ] as const)
      for (const s of ['cold', 'warm']) lines.push(row(p, s, r, ms));
  writeFileSync(join(dir, 'samples.csv'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    `experiment: { name: imp, question: Is b slower than a? }
analysis: { bootstrap: { resamples: 200 }, comparisons: [{ a: b, b: a }] }
stages:
  - { id: import, uses: import-samples, with: { file: samples.csv } }
  - { id: analyze, uses: analyze, needs: [import] }
  - { id: report, uses: report, needs: [analyze, import] }
`,
  );
  const first = await runCli(['run', '--json'], dir);
  t.is(first.code, 0, first.stderr);
  t.deepEqual(stagesRan(first), ['import', 'analyze', 'report']);
  t.deepEqual(stagesRan(await runCli(['run', '--json'], dir)), []);
  appendFileSync(join(dir, 'samples.csv'), row('a', 'cold', 6, 11) + '\n');
  const status = await runCli(['status'], dir);
  t.regex(status.stdout, /STALE\s+import \(import-samples\): input file samples\.csv changed/);
  const third = await runCli(['run', '--json'], dir);
  t.is(third.code, 0, third.stderr);
  t.deepEqual(stagesRan(third), ['import', 'analyze', 'report']);
});
