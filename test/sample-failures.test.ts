// Launches that exit non-zero or miss their output check are recorded as
// failure rows with a reason, and the report counts them; none is dropped.
import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { runCli, tempDir } from './helpers/cli.js';

const PIPELINE = `experiment: { name: flaky, question: Are failures counted? }
cohorts:
  c:
    command: [sh, -c, 'echo {marker}']
paths:
  steady:
    launch: ['{command}']
  flaky:
    # every third launch of a session exits 7 before starting the workload
    launch: [sh, -c, 'f={session_dir}/n; n=$(( $(cat $f 2>/dev/null || echo 0) + 1 )); echo $n > $f; [ $((n % 3)) -ne 0 ] || exit 7; exec "$@"', flaky, '{command}']
design: { warmup_rounds: 0, rounds: 6, seed: s }
analysis: { bootstrap: { resamples: 100 }, comparisons: [{ a: flaky, b: steady }] }
stages:
  - { id: warmup, uses: warmup }
  - { id: sample, uses: sample, needs: [warmup] }
  - { id: analyze, uses: analyze, needs: [sample] }
  - { id: report, uses: report, needs: [analyze, sample] }
`;

test('a launch that exits non-zero is a failure row with its reason, and the report counts it', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pipeline.yaml'), PIPELINE);
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);
  const base = join(dir, '.data', 'stages', 'sample');
  const db = await Database.open(join(base, readdirSync(base)[0]!, 'outputs', 'samples.duckdb'), { readOnly: true });
  let failed: Record<string, unknown>[];
  try {
    failed = await db.all(`SELECT path, failure_reason, ready_ms FROM samples WHERE phase = 'formal' AND NOT ok ORDER BY launch_id`);
    const total = await db.one(`SELECT count(*) AS n FROM samples WHERE phase = 'formal'`);
    t.is(Number(total!['n']), 6 * 2 * 2, 'every launch is a row, failed or not');
  } finally {
    db.close();
  }
  t.is(failed.length, 4, '12 flaky launches, every third fails');
  for (const f of failed) {
    t.is(f['path'], 'flaky');
    t.regex(String(f['failure_reason']), /exit|marker/);
    t.is(f['ready_ms'], null);
  }
  const stats = readFileSync(join(dir, 'reports', 'flaky', 'statistics.csv'), 'utf8');
  const header = stats.split('\n')[0]!.split(',');
  const failIdx = header.indexOf('failures');
  t.true(failIdx >= 0, header.join(','));
  const flakyFailures = stats
    .split('\n')
    .slice(1)
    .filter((l) => l.includes(',flaky,') && l.includes(',ready,'))
    .reduce((n, l) => n + Number(l.split(',')[failIdx]), 0);
  t.is(flakyFailures, 4);
  const report = readFileSync(join(dir, 'reports', 'flaky', 'report.md'), 'utf8');
  // A flaky cell's sentence says how many of its launches failed, and why (the counts are checked in statistics.csv above).
  t.regex(report, /n=\d of 6; \d failed \(marker line never appeared on stdout \(exit code 7\)\)/);
});
