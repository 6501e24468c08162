// The private local Slurm cluster starts and stops with nothing left behind:
// no daemon it started, no temporary folder, whether stopped by its owner or
// by SIGTERM/SIGINT to the process that started it.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLocalCluster } from '../harness/cluster/local-cluster.js';
import { freeLoopbackPort } from '../harness/services/free-port.js';
import { createServer } from 'node:net';
import { projectRoot } from '../harness/process/project-root.js';
import { alive } from './helpers/processes.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

/** The program name of a live pid, '' when gone. */
const programOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

test('a started cluster runs munged, slurmctld and one slurmd per node, all listening on 127.0.0.1 only', async (t) => {
  const cluster = await startLocalCluster();
  try {
    t.deepEqual(
      cluster.pids.map((p) => programOf(p.pid)),
      ['munged', 'slurmctld', 'slurmd', 'slurmd'],
    );
    const listening = execFileSync('ss', ['-Hltnp'], { encoding: 'utf8' });
    const ours = listening.split('\n').filter((l) => cluster.pids.some((p) => l.includes(`pid=${p.pid},`)));
    t.is(ours.length, 3, listening);
    t.true(
      ours.every((l) => /\s127\.0\.0\.1:\d+\s/.test(l)),
      ours.join('\n'),
    );
  } finally {
    await cluster.stop();
  }
});

test('a port taken between its pick and its daemon start is picked again: the cluster starts on new ports', async (t) => {
  // the first node's first port is one this test holds, as another program can take a port picked free
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = (holder.address() as { port: number }).port;
  let picks = 0;
  const cluster = await startLocalCluster({ pickPort: () => (picks++ === 0 ? Promise.resolve(taken) : freeLoopbackPort()) });
  try {
    t.true(picks > 3, 'ports picked again after the taken one');
    t.false(
      cluster.nodes.some((n) => n.port === taken),
      'no node on the taken port',
    );
    t.deepEqual(
      cluster.pids.map((p) => programOf(p.pid)),
      ['munged', 'slurmctld', 'slurmd', 'slurmd'],
    );
  } finally {
    await cluster.stop();
    holder.close();
  }
});

test('stopping the cluster ends every daemon it started and removes its folder', async (t) => {
  const cluster = await startLocalCluster();
  await cluster.stop();
  t.deepEqual(
    cluster.pids.filter((p) => alive(p.pid)),
    [],
  );
  t.false(existsSync(cluster.dir));
});

test('stopping the cluster while a job runs ends the job and its command', async (t) => {
  const cluster = await startLocalCluster();
  const pidFile = join(cluster.dir, 'job.pid');
  try {
    execFileSync('sbatch', ['--parsable', '-w', 'n1', '-o', '/dev/null', '--wrap', `echo $$ > ${pidFile}; exec sleep 60`], {
      env: { ...process.env, SLURM_CONF: cluster.slurmConf },
    });
    for (const deadline = Date.now() + 20_000; !existsSync(pidFile) || !readFileSync(pidFile, 'utf8').trim(); await sleep(20)) {
      if (Date.now() > deadline) throw new Error('the job did not start within 20 s');
    }
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  const jobPid = Number(readFileSync(pidFile, 'utf8'));
  t.true(alive(jobPid));
  await cluster.stop();
  for (let i = 0; i < 25 && alive(jobPid); i++) await sleep(20);
  t.false(alive(jobPid));
  t.deepEqual(
    cluster.pids.filter((p) => alive(p.pid)),
    [],
  );
});

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  test(`${sig} to the start-local-cluster command stops every daemon and removes the folder`, async (t) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot(), 'dist', 'harness', 'cluster', 'start-local-cluster.js')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b) => {
        out += b;
        if (/^export SLURM_CONF=/m.test(out)) resolve();
      });
      child.on('close', () => reject(new Error(`ended before ready: ${out}`)));
    });
    const pids = [...out.matchAll(/(?:munged|slurmctld|n\d) (\d+)/g)].map((m) => Number(m[1]));
    const dir = /removes (\S+)\)/.exec(out)![1]!;
    t.is(pids.length, 4, out);
    t.true(pids.every(alive));
    child.kill(sig);
    t.is(await ended, sig === 'SIGINT' ? 130 : 143);
    for (let i = 0; i < 25 && pids.some(alive); i++) await sleep(20);
    t.deepEqual(pids.filter(alive), []);
    t.false(existsSync(dir));
  });
}
