// The Slurm executor's own logic, without a cluster: parsing what scontrol and
// squeue print, mapping Slurm's states, and the batch script it submits.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobDetailOf, parseQueueRows, parseScontrolJob } from '../harness/executors/slurm-job-record.js';
import { jobStateOf } from '../harness/executors/slurm-job-state.js';
import { formatJobsLine, latestByJob } from '../harness/executors/jobs-progress-line.js';
import type { SlurmJobProgress } from '../harness/executors/slurm-job-types.js';
import { jobFiles, parseSbatchOutput, renderBatchScript, sbatchArgs } from '../harness/executors/sbatch-script.js';
import { tempDir } from './helpers/cli.js';

test('a one-line scontrol job record keeps values that contain spaces', (t) => {
  const f = parseScontrolJob(
    'JobId=7 JobName=s1 JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0 NodeList=n2 StdOut=/tmp/my data/s1.out Socks/Node=* AllocNode:Sid=localhost:1',
  );
  t.like(f, {
    JobId: '7',
    JobState: 'FAILED',
    ExitCode: '3:0',
    NodeList: 'n2',
    StdOut: '/tmp/my data/s1.out',
    'Socks/Node': '*',
    'AllocNode:Sid': 'localhost:1',
  });
});

test('ExitCode 3:0 is exit code 3 and 0:15 is signal 15 with no exit code', (t) => {
  t.like(jobDetailOf({ ExitCode: '3:0' }), { exitCode: 3, signal: null });
  t.like(jobDetailOf({ ExitCode: '0:15' }), { exitCode: null, signal: 15 });
});

test('Slurm state words map onto pending, running, done, failed and cancelled', (t) => {
  const words = [
    'PENDING',
    'CONFIGURING',
    'RUNNING',
    'COMPLETING',
    'COMPLETED',
    'FAILED',
    'NODE_FAIL',
    'TIMEOUT',
    'OUT_OF_MEMORY',
    'CANCELLED',
    'CANCELLED by 0',
    'CANCELLED+',
  ];
  t.deepEqual(words.map(jobStateOf), [
    'pending',
    'pending',
    'running',
    'running',
    'done',
    'failed',
    'failed',
    'failed',
    'failed',
    'cancelled',
    'cancelled',
    'cancelled',
  ]);
});

test('squeue rows give no node and no reason while Slurm prints none', (t) => {
  t.deepEqual(parseQueueRows('12|PENDING||Priority\n13|RUNNING|n1|None\n'), [
    { jobId: '12', slurmState: 'PENDING', node: null, reason: 'Priority' },
    { jobId: '13', slurmState: 'RUNNING', node: 'n1', reason: null },
  ]);
});

test('sbatch --parsable output with a cluster name gives the job id alone', (t) => {
  t.is(parseSbatchOutput('4711;cluster-a\n'), '4711');
});

test('sbatch gets the partition, constraint and a job nodelist that overrides the default', (t) => {
  const args = sbatchArgs(
    { name: 'j', argv: ['true'], nodelist: 'n2' },
    { outputDir: '/o', partition: 'p', constraint: 'ssd', nodelist: 'n1' },
    jobFiles('/o', 'j'),
  );
  t.deepEqual(args, [
    '--parsable',
    '--job-name',
    'j',
    '--output',
    '/o/j.out',
    '--error',
    '/o/j.err',
    '--export',
    'ALL',
    '--partition',
    'p',
    '--constraint',
    'ssd',
    '--nodelist',
    'n2',
    '/o/j.sbatch',
  ]);
});

test('the batch script hands argv to the command unchanged, quotes and spaces included', (t) => {
  const dir = tempDir('benchgraph-sbatch-script-');
  try {
    const argv = ["it's", 'two words', '$HOME', '"q"', '`x`', ''];
    const files = jobFiles(dir, 'quoting');
    writeFileSync(files.script, renderBatchScript({ name: 'quoting', argv: ['printf', '<%s>', ...argv] }, files));
    const out = execFileSync('sh', [files.script], { encoding: 'utf8' });
    t.is(out, argv.map((a) => `<${a}>`).join(''));
    t.regex(readFileSync(files.startStamp, 'utf8'), /^\d{19}\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the batch script exports the job's environment to the command", (t) => {
  const dir = tempDir('benchgraph-sbatch-script-');
  try {
    const files = jobFiles(dir, 'env');
    writeFileSync(files.script, renderBatchScript({ name: 'env', argv: ['sh', '-c', 'printf %s "$GREETING"'], env: { GREETING: "a 'b' $c" } }, files));
    t.is(execFileSync('sh', [files.script], { encoding: 'utf8' }), "a 'b' $c");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the jobs line counts each job once, by its latest state, and names the node of running and failed jobs', (t) => {
  let latest = new Map<string, SlurmJobProgress>();
  const p = (name: string, state: SlurmJobProgress['state'], node: string | null): SlurmJobProgress => ({
    name,
    jobId: name,
    state,
    slurmState: '',
    node,
    reason: null,
  });
  for (const e of [
    p('s1', 'pending', null),
    p('s2', 'pending', null),
    p('s3', 'pending', null),
    p('s1', 'running', 'n1'),
    p('s2', 'running', 'n2'),
    p('s2', 'failed', 'n2'),
  ])
    latest = latestByJob(latest, e);
  t.is(formatJobsLine(latest), 'jobs: 1 pending · 1 running (s1@n1) · 0 done · 1 failed (s2@n2) · 0 cancelled');
});
