// The Slurm executor against a real private cluster: munged, slurmctld and two
// slurmd (n1, n2) on 127.0.0.1, started once for this file. Node n2 runs in its
// own mount namespace with an empty tmpfs over `hidden`, so it is a real node
// that cannot see that folder.
import test from 'ava';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync, spawn } from 'node:child_process';
import { type LocalCluster, startLocalCluster } from '../harness/cluster/local-cluster.js';
import { runSlurmJobs } from '../harness/executors/slurm-executor.js';
import { checkSharedFolder } from '../harness/executors/shared-folder-check.js';
import type { SlurmJobProgress } from '../harness/executors/slurm-job-types.js';
import { UserError } from '../harness/errors.js';
import { alive } from './helpers/processes.js';
import { onCleanup } from '../harness/process/cleanup.js';
import { projectRoot } from '../harness/process/project-root.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';
import { tempDir } from './helpers/cli.js';

let cluster: LocalCluster;
let work: string;
let hidden: string;
let removeFolders: () => Promise<void> = async () => {};

test.before(async () => {
  work = tempDir('benchgraph-slurm-test-');
  hidden = tempDir('benchgraph-slurm-hidden-');
  // Also on SIGTERM (ava's timeout), after the cluster registered later has stopped.
  removeFolders = onCleanup('slurm test folders', () => {
    rmSync(work, { recursive: true, force: true });
    rmSync(hidden, { recursive: true, force: true });
  });
  cluster = await startLocalCluster({
    nodes: [
      { name: 'n1', features: ['alpha'] },
      { name: 'n2', features: ['beta'], hiddenFolders: [hidden] },
    ],
  });
});

test.after.always(async () => {
  await cluster?.stop();
  await removeFolders();
});

const outDir = (name: string): string => join(work, name);

/** Resolves with the pid a job wrote to `file`, once it has; fails after timeoutMs. */
async function pidWritten(file: string, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid > 0) return pid;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${file} after ${timeoutMs} ms`);
    await sleep(20);
  }
}

const readPid = (file: string): number => {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
};

test('two jobs pinned to n1 and n2 run on their nodes, which they see as SLURMD_NODENAME', async (t) => {
  const out = await runSlurmJobs(
    ['n1', 'n2'].map((node) => ({ name: `on-${node}`, nodelist: node, argv: ['sh', '-c', 'echo "$SLURMD_NODENAME"'] })),
    { slurmConf: cluster.slurmConf, outputDir: outDir('two-nodes'), pollMs: 100 },
  );
  t.deepEqual(
    out.map((o) => [o.state, o.node, o.exitCode]),
    [
      ['done', 'n1', 0],
      ['done', 'n2', 0],
    ],
  );
  t.deepEqual(
    out.map((o) => readFileSync(o.stdoutFile, 'utf8').trim()),
    ['n1', 'n2'],
  );
});

test('a job reports its submission-to-start delay from its own start stamp', async (t) => {
  const before = Date.now();
  const [o] = await runSlurmJobs([{ name: 'delay', argv: ['true'] }], { slurmConf: cluster.slurmConf, outputDir: outDir('delay'), pollMs: 100 });
  t.is(o!.startDelaySource, 'job-stamp');
  t.true(o!.submittedAtMs! >= before);
  t.true(o!.startDelayMs! > 0 && o!.startDelayMs! < Date.now() - before, `delay ${o!.startDelayMs} ms`);
});

test('progress reports each job pending, then running, then done, with the node that ran it', async (t) => {
  const seen: SlurmJobProgress[] = [];
  await runSlurmJobs([{ name: 'progress', nodelist: 'n2', argv: ['sleep', '1.5'] }], {
    slurmConf: cluster.slurmConf,
    outputDir: outDir('progress'),
    pollMs: 100,
    onProgress: (p) => seen.push(p),
  });
  t.deepEqual(
    seen.map((p) => p.state),
    ['pending', 'running', 'done'],
  );
  t.deepEqual(
    seen.slice(1).map((p) => p.node),
    ['n2', 'n2'],
  );
});

test('a job with a constraint runs on the node that has the feature', async (t) => {
  const out = await runSlurmJobs(
    [1, 2].map((i) => ({ name: `beta-${i}`, argv: ['true'] })),
    { slurmConf: cluster.slurmConf, outputDir: outDir('constraint'), constraint: 'beta', pollMs: 100 },
  );
  t.deepEqual(
    out.map((o) => o.node),
    ['n2', 'n2'],
  );
});

test('an unknown partition is a UserError quoting sbatch', async (t) => {
  const e = await t.throwsAsync(
    runSlurmJobs([{ name: 'nowhere', argv: ['true'] }], { slurmConf: cluster.slurmConf, outputDir: outDir('partition'), partition: 'no-such-partition' }),
    { instanceOf: UserError },
  );
  t.regex(e!.message, /^sbatch refused job nowhere: .*[Ii]nvalid partition/);
});

test('a failing job is reported failed with its exit code', async (t) => {
  const [o] = await runSlurmJobs([{ name: 'fails', argv: ['sh', '-c', 'exit 7'] }], { slurmConf: cluster.slurmConf, outputDir: outDir('fails'), pollMs: 100 });
  t.like(o, { state: 'failed', exitCode: 7, signal: null });
});

test('a job cancelled with scancel is reported cancelled', async (t) => {
  const dir = outDir('scancel');
  const out = await runSlurmJobs([{ name: 'long', argv: ['sleep', '60'] }], {
    slurmConf: cluster.slurmConf,
    outputDir: dir,
    pollMs: 100,
    onProgress: (p) => {
      if (p.state === 'running') execFileSync('scancel', [p.jobId], { env: { ...process.env, SLURM_CONF: cluster.slurmConf } });
    },
  });
  t.like(out[0], { state: 'cancelled', exitCode: null });
});

test.serial('aborting cancels pending and running jobs and their commands end', async (t) => {
  const dir = outDir('abort');
  const abort = new AbortController();
  const running = new Set<string>();
  const seen: SlurmJobProgress[] = [];
  // n1 has 2 CPUs: two jobs run, the third waits.
  const jobs = ['a', 'b', 'c'].map((name) => ({ name, nodelist: 'n1', argv: ['sh', '-c', 'echo $$ > "$1"; exec sleep 60', 'sh', join(dir, `${name}.pid`)] }));
  const result = runSlurmJobs(jobs, {
    slurmConf: cluster.slurmConf,
    outputDir: dir,
    pollMs: 100,
    signal: abort.signal,
    onProgress: (p) => {
      seen.push(p);
      if (p.state === 'running') running.add(p.name);
    },
  });
  // Slurm reports RUNNING before the command has started: abort once two commands have written their pids
  // and the executor's poll has seen both jobs running (on a loaded machine the poll can lag the pid files).
  const pids: number[] = [];
  for (const deadline = Date.now() + 20_000; pids.length < 2 || running.size < 2;) {
    if (Date.now() > deadline) throw new Error(`two commands did not start within 20 s: ${JSON.stringify(seen)}`);
    await sleep(20);
    pids.splice(0, pids.length, ...jobs.flatMap((j) => [readPid(join(dir, `${j.name}.pid`))].filter((pid) => pid > 0)));
  }
  abort.abort();
  const out = await result;
  t.deepEqual(
    out.map((o) => o.state),
    ['cancelled', 'cancelled', 'cancelled'],
  );
  t.is(running.size, 2, 'the third job was still pending when aborted');
  for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(20);
  t.deepEqual(pids.filter(alive), [], 'the running commands ended');
});

test('SIGINT to the runner cancels its running jobs and their commands end', async (t) => {
  const dir = outDir('sigint');
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot(), 'dist', 'test', 'helpers', 'slurm-jobs-child.js'), dir], {
    env: { ...process.env, SLURM_CONF: cluster.slurmConf },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b) => {
      out += b;
      if ((out.match(/ running /g) ?? []).length === 2) resolve();
    });
    child.on('close', () => reject(new Error(`runner ended first: ${out}`)));
  });
  const jobIds = [...out.matchAll(/^s\d (\d+) pending/gm)].map((m) => m[1]!);
  const pids = await Promise.all(['s1', 's2'].map((n) => pidWritten(join(dir, `${n}.pid`))));
  child.kill('SIGINT');
  t.is(await ended, 130);
  const states = (): string[] =>
    execFileSync('squeue', ['--jobs', jobIds.join(','), '--states', 'all', '-h', '-o', '%T'], {
      env: { ...process.env, SLURM_CONF: cluster.slurmConf },
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
  // COMPLETING while the nodes end the steps, then CANCELLED.
  for (let i = 0; i < 100 && states().some((s) => s === 'COMPLETING'); i++) await sleep(50);
  t.deepEqual(states(), ['CANCELLED', 'CANCELLED']);
  for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(20);
  t.deepEqual(pids.filter(alive), []);
});

test('aborting during submission cancels the submitted job and submits no more', async (t) => {
  const abort = new AbortController();
  const out = await runSlurmJobs(
    ['first', 'second', 'third'].map((name) => ({ name, argv: ['sleep', '60'] })),
    { slurmConf: cluster.slurmConf, outputDir: outDir('abort-submission'), pollMs: 100, signal: abort.signal, onProgress: () => abort.abort() },
  );
  t.deepEqual(
    out.map((o) => [o.name, o.state, o.jobId === null]),
    [
      ['first', 'cancelled', false],
      ['second', 'cancelled', true],
      ['third', 'cancelled', true],
    ],
  );
});

test('the shared-folder check passes when every node sees the folder', async (t) => {
  await t.notThrowsAsync(checkSharedFolder(work, { slurmConf: cluster.slurmConf }));
});

test('the shared-folder check names the node that cannot see the folder in a UserError', async (t) => {
  const e = await t.throwsAsync(checkSharedFolder(hidden, { slurmConf: cluster.slurmConf }), { instanceOf: UserError });
  t.regex(e!.message, new RegExp(`^node n2 \\(.*\\) cannot see the shared folder ${hidden}$`));
});

test('the executor fails, naming the controller, when the controller stops answering', async (t) => {
  // A Slurm client retries a lost controller for about MessageTimeout (10 s by default).
  const own = await startLocalCluster({ extraConf: ['MessageTimeout=2'] });
  try {
    const ctld = own.pids.find((p) => p.label === 'slurmctld')!.pid;
    const run = runSlurmJobs([{ name: 'orphan', argv: ['sleep', '60'] }], {
      slurmConf: own.slurmConf,
      outputDir: outDir('unreachable'),
      pollMs: 100,
      controllerTimeoutMs: 500,
      onProgress: (p) => {
        if (p.state === 'pending') process.kill(ctld, 'SIGKILL');
      },
    });
    const e = await t.throwsAsync(run);
    t.regex(e!.message, /^the Slurm controller did not answer for 500 ms: /);
  } finally {
    await own.stop();
  }
});
