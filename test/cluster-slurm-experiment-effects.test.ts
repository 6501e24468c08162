// `pipeline run --executor slurm` of a sandbox-effects experiment on a real
// private two-node cluster (munged, slurmctld, slurmd n1 and n2 on
// 127.0.0.1): each session runs as one job through the effects adapter,
// rebuilt on its node from the stage's kind, and the merged table holds the
// same launches as an in-process run; a cancelled job leaves its session
// incomplete, the stage fails naming it, and the next run resubmits only it.
// The rows are two plain shell commands (no root-only services), so the test
// is about our Slurm path, not about gVisor. Root only (the daemons run as root); CI runs as root.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { runCli, tempDir } from './helpers/cli.js';
import { runCancellingJob, twoNodeClusterTests } from './helpers/two-node-cluster.js';

const rootTest = twoNodeClusterTests('cluster-slurm-experiment-effects');

/** A two-session effects experiment of one row: a shell that sleeps `sleepS` before its marker against one that does not. */
function effectsProject(sleepS: number, rounds: number): string {
  const dir = tempDir('bg-slurm-fx-');
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    `experiment:
  name: effects-slurm-mini
  question: Do two plain commands sample the same launches on Slurm as in process?
design:
  disk_probe_mb: 0
  sessions: 2
  rounds: ${rounds}
  warmup_rounds: 0
  seed: fx-slurm-1
  timeout_s: 20
effects:
  rows:
    - id: plain
      name: A shell that sleeps a little against one that does not
      system: gVisor
      source: test row
      requires: []
      metric: ready
      before: { launch: [sh, -c, 'sleep ${sleepS}; echo {marker}'] }
      after: { launch: [sh, -c, 'echo {marker}'] }
stages:
  - id: effects-sample
    uses: effects-sample
`,
  );
  return dir;
}

interface Launch {
  id: string;
  session: number;
  attempt: number;
  host: string;
}

async function launches(dir: string): Promise<Launch[]> {
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
  const file = join(dir, '.data', 'stages', 'effects-sample', lock.stages['effects-sample'].key, 'outputs', 'samples.duckdb');
  const db = await Database.open(file, { readOnly: true });
  try {
    const rows = await db.all(`SELECT launch_id, session, host FROM samples WHERE phase = 'formal' AND ok ORDER BY launch_id`);
    return rows.map((r) => ({
      id: String(r['launch_id']),
      session: Number(r['session']),
      attempt: Number(/\.a(\d+)$/.exec(String(r['launch_id']))![1]),
      host: String(r['host']),
    }));
  } finally {
    db.close();
  }
}

rootTest('two effects sessions run as one Slurm job each and journal the same launch ids and row count as the local executor', async (t) => {
  const local = effectsProject(0.02, 2);
  const onSlurm = effectsProject(0.02, 2);
  const a = await runCli(['run'], local);
  t.is(a.code, 0, a.stderr);
  const b = await runCli(['run', '--executor', 'slurm'], onSlurm);
  t.is(b.code, 0, b.stderr);
  t.regex(b.stderr, /slurm: submitting 2 session job\(s\): benchgraph-S1-a1, benchgraph-S2-a1\n/);
  t.regex(b.stderr, /slurm jobs: 0 pending · 0 running · 2 done · 0 failed · 0 cancelled/);
  const inProcess = await launches(local);
  const jobs = await launches(onSlurm);
  t.is(inProcess.length, 2 * 2 * 2, 'sessions × rounds × sides');
  t.deepEqual(
    jobs.map((l) => l.id),
    inProcess.map((l) => l.id),
  );
  // Each session ran on one node, the one its job ran on.
  for (const s of [1, 2]) {
    const node = new RegExp(`benchgraph-S${s}-a1 \\(job \\d+\\) running on (n[12])`).exec(b.stderr)?.[1];
    t.truthy(node, `job of session ${s} ran`);
    t.deepEqual([...new Set(jobs.filter((l) => l.session === s).map((l) => l.host))], [node]);
  }
  const lock = JSON.parse(readFileSync(join(onSlurm, 'pipeline.lock'), 'utf8'));
  const records = JSON.parse(
    readFileSync(join(onSlurm, '.data', 'stages', 'effects-sample', lock.stages['effects-sample'].key, 'observations', 'sessions.json'), 'utf8'),
  ) as { session: number; attempt: number }[];
  t.deepEqual(
    records.map((r) => [r.session, r.attempt]),
    [
      [1, 1],
      [2, 1],
    ],
  );
});

rootTest(
  'a cancelled effects session job leaves its session incomplete, the stage fails naming it, and the next run resubmits only that session',
  async (t) => {
    const dir = effectsProject(0.4, 6);
    const { code, err } = await runCancellingJob(['run', '--executor', 'slurm'], dir);
    t.is(code, 1, err.slice(-2000));
    t.regex(err, /1 of 2 session job\(s\) did not complete/);
    t.regex(err, /benchgraph-S2-a1: cancelled/);
    const again = await runCli(['run', '--executor', 'slurm'], dir);
    t.is(again.code, 0, again.stderr);
    t.regex(again.stderr, /slurm: submitting 1 session job\(s\): benchgraph-S2-a2\n/);
    const rows = await launches(dir);
    t.is(rows.length, 2 * 6 * 2);
    t.is(new Set(rows.map((r) => r.id)).size, rows.length, 'no launch counted twice');
    t.deepEqual([...new Set(rows.filter((r) => r.session === 1).map((r) => r.attempt))], [1], 'session 1 kept from the first run');
    t.true(
      rows.filter((r) => r.session === 2).every((r) => r.attempt === 2 || r.attempt === 1),
      'session 2 completed by the second run',
    );
  },
);
