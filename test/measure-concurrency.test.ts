// `pipeline measure --concurrency N` (issue 46): each round's launch of a
// command is a burst of N copies released together by the launch helper. The
// real command in a child process, real launches; no assertion on speed.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

// each copy marks that it started, then waits for the round's other copies: copies run one at a time would time out
const barrier = (n: number): string => `touch started.$$; until [ "$(ls started.* | wc -l)" -ge ${n} ]; do sleep 0.01; done; echo READY`;

test('--concurrency 4 runs four copies at once and says per burst the first and last done, launches/s and failures', async (t) => {
  const dir = tempDir();
  const out = join(dir, 'm.json');
  const r = await runCli(
    ['measure', '-r', '1', '--concurrency', '4', '--marker', 'READY', '--timeout', '60', '--export-json', out, '--', 'sh', '-c', barrier(4)],
    dir,
  );
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /4 runs/);
  t.regex(
    r.stdout,
    /4 at once\s+1 bursts released together, Ready from the release: all done median \d+\.\d+ ms \(first \d+\.\d+ ms\), \d+\.\d launches\/s; failed 0 of 4 \[0\.0%, 60\.2%\]/,
  );
  const json = JSON.parse(readFileSync(out, 'utf8')) as {
    results: { runs: number; burst: { concurrency: number; bursts: number; failures: { failed: number; of: number; low: number; high: number } } }[];
  };
  t.deepEqual(
    {
      runs: json.results[0]!.runs,
      concurrency: json.results[0]!.burst.concurrency,
      bursts: json.results[0]!.burst.bursts,
      failed: json.results[0]!.burst.failures,
    },
    { runs: 4, concurrency: 4, bursts: 1, failed: { failed: 0, of: 4, low: 0, high: json.results[0]!.burst.failures.high } },
  );
});

test("--concurrency beyond the helper's largest burst, or below 1, is one line naming the flag, exit code 2", async (t) => {
  for (const n of ['129', '0']) {
    const r = await runCli(['measure', '--concurrency', n, '--', 'true'], tempDir());
    t.is(r.code, 2, r.stderr);
    t.is(r.stderr.trim().split('\n').length, 1);
    t.regex(r.stderr, /--concurrency/);
  }
});
