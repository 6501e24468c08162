// `pipeline run --executor slurm` of a commit-diff experiment on a real
// private two-node cluster (munged, slurmctld, slurmd n1 and n2 on
// 127.0.0.1): each session runs as one job through the commit adapter,
// rebuilt on its node from the stage's kind (both private engines started
// afresh in the job), and the merged table holds the same launches as an
// in-process run, the compression step included (the last session's job
// runs it). One cell, one round, so the test is about the Slurm path, not
// about commit timings. The local cluster's nodes share one kernel, whose
// overlay redirect_dir each session's engines set while they start (two
// sessions at once committed different change sets): both jobs go to n1,
// one after the other, as two hosts would keep them apart. Root only (the daemons and engines run as root); CI runs as root.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { readRedirectDir } from '../harness/process/overlay-redirect-dir.js';
import { runCli, tempDir } from './helpers/cli.js';
import { twoNodeClusterTests } from './helpers/two-node-cluster.js';
import { takeTurnsWithOverlayUsers } from './helpers/overlay-users.js';

takeTurnsWithOverlayUsers();

const rootTest = twoNodeClusterTests('cluster-slurm-experiment-commit');

function commitProject(): string {
  const dir = tempDir('bg-slurm-commit-');
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    `experiment:
  name: commit-diff-slurm-mini
  question: Do commit-diff sessions sample the same launches on Slurm as in process?
artifacts:
  images:
    busybox:
      kind: busybox-static
      repository: benchgraph/busybox
design:
  disk_probe_mb: 0
  sessions: 2
  warmup_rounds: 0
  rounds: 1
  seed: commit-diff-slurm-1
  timeout_s: 120
  matrix:
    - { total_mb: [2], file_count: [10], change_bytes: [1024] }
stages:
  - id: pin
    uses: pin
  - id: commit-sample
    uses: commit-sample
    needs: [pin]
    with:
      image: busybox
      compression: { total_mb: 1, file_count: 2, rounds: 1 }
`,
  );
  return dir;
}

function outputOf(dir: string, file: string): string {
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
  return join(dir, '.data', 'stages', 'commit-sample', lock.stages['commit-sample'].key, 'outputs', file);
}

async function launches(dir: string): Promise<{ id: string; session: number; host: string; ok: boolean }[]> {
  const db = await Database.open(outputOf(dir, 'samples.duckdb'), { readOnly: true });
  try {
    const rows = await db.all(`SELECT launch_id, session, host, ok FROM samples WHERE phase = 'formal' ORDER BY launch_id`);
    return rows.map((r) => ({ id: String(r['launch_id']), session: Number(r['session']), host: String(r['host']), ok: r['ok'] === true }));
  } finally {
    db.close();
  }
}

rootTest('two commit-diff sessions run as one Slurm job each and journal the same launch ids and row count as the local executor', async (t) => {
  const redirectBefore = readRedirectDir();
  const local = commitProject();
  const onSlurm = commitProject();
  const a = await runCli(['run'], local);
  t.is(a.code, 0, a.stderr.slice(-2000));
  const b = await runCli(['run', '--executor', 'slurm', '--set', 'executor.nodelist=n1'], onSlurm);
  t.is(b.code, 0, b.stderr.slice(-2000));
  t.regex(b.stderr, /slurm: submitting 2 session job\(s\): benchgraph-S1-a1, benchgraph-S2-a1\n/);
  const inProcess = await launches(local);
  const jobs = await launches(onSlurm);
  // 2 sessions × 1 cell × 1 round × 2 engines × 2 states, and the compression step's launches in the last session.
  t.is(inProcess.filter((l) => !l.id.startsWith('compression.')).length, 8);
  t.true(inProcess.some((l) => l.id.startsWith('compression.') && l.session === 2));
  t.deepEqual(
    jobs.map((l) => l.id),
    inProcess.map((l) => l.id),
  );
  t.true(
    jobs.every((l) => l.ok),
    'no commit failed in a job',
  );
  // Each session in its own job, the two never at once on the node.
  t.regex(b.stderr, /slurm jobs: 1 pending · 1 running \(benchgraph-S1-a1@n1\) · 0 done/);
  t.regex(b.stderr, /slurm jobs: 0 pending · 1 running \(benchgraph-S2-a1@n1\) · 1 done/);
  t.notRegex(b.stderr, /2 running/);
  for (const s of [1, 2]) t.deepEqual([...new Set(jobs.filter((l) => l.session === s).map((l) => l.host))], ['n1']);
  // The change-set check the jobs wrote into the shared work folder reached the stage's outputs.
  const checks = JSON.parse(readFileSync(outputOf(onSlurm, 'change-set-checks.json'), 'utf8')) as { equal: boolean }[];
  t.is(checks.length, 2);
  t.true(checks.every((c) => c.equal));
  t.is(readRedirectDir(), redirectBefore, 'the overlay setting is back');
});
