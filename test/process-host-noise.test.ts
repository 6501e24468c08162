import test from 'ava';
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { defaultNoiseRule, hostNoise, noisySession, parsePidStat, readHostSnapshot, type HostNoise, type HostSnapshot } from '../harness/process/host-noise.js';
import { isAlive } from '../harness/process/pid.js';
import { tempDir } from './helpers/cli.js';

let scripts = 0;

/** A shell script that spins; run directly, its comm is the script's file name (unique per test, at most 15 characters). */
function busyScript(): { file: string; name: string } {
  const name = `bg${process.pid % 100000}-${++scripts}.sh`;
  const file = join(tempDir('benchgraph-noise-'), name);
  writeFileSync(file, '#!/bin/sh\nwhile :; do :; done\n');
  chmodSync(file, 0o755);
  return { file, name };
}

const cpuTicksOf = (pid: number): number => parsePidStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuTicks;

async function waitForCpu(pid: number, ticks: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (cpuTicksOf(pid) < ticks) {
    if (Date.now() > deadline) throw new Error(`pid ${pid} got less than ${ticks} ticks of CPU in 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stopper(pid: number, name: string): () => void {
  return () => {
    // only the process we started: same pid and still our script's name
    if (isAlive(pid) && parsePidStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).name === name) process.kill(pid, 'SIGKILL');
  };
}

test('a busy process that is not ours shows by name with its CPU time between two snapshots', async (t) => {
  const { file, name } = busyScript();
  const start = readHostSnapshot();
  // the outer shell exits at once, so the spinning script is re-parented away from us
  const pid = Number(
    execFileSync('/bin/sh', ['-c', `${file} >/dev/null 2>&1 & echo $!`])
      .toString()
      .trim(),
  );
  t.teardown(stopper(pid, name));
  await waitForCpu(pid, 30);
  const end = readHostSnapshot();
  const noise = hostNoise(start, end, [process.pid], Infinity);
  const entry = noise.topForeign.find((f) => f.name === name);
  t.truthy(entry, `${name} missing from ${noise.topForeign.map((f) => f.name).join(', ')}`);
  t.true(entry!.cpuMs >= 300, `${entry!.cpuMs} ms`);
  t.true(noise.foreignCpuMs >= entry!.cpuMs);
});

test('a busy child of ours is not counted as foreign CPU time', async (t) => {
  const { file, name } = busyScript();
  const start = readHostSnapshot();
  const child = spawn(file, [], { stdio: 'ignore' });
  t.teardown(stopper(child.pid!, name));
  await waitForCpu(child.pid!, 30);
  const noise = hostNoise(start, readHostSnapshot(), [process.pid], Infinity);
  t.is(
    noise.topForeign.find((f) => f.name === name),
    undefined,
  );
});

test('a snapshot of the real /proc has the CPU count, a model and MemAvailable within MemTotal', (t) => {
  const s = readHostSnapshot();
  t.is(s.cpuCount, cpus().length);
  t.not(s.cpuModel, 'unknown');
  t.true(s.memAvailableBytes > 0 && s.memAvailableBytes <= s.memTotalBytes);
  t.true(s.processes.some((p) => p.pid === process.pid));
});

test('steal, iowait and idle shares between two real snapshots are parts of one whole', async (t) => {
  const start = readHostSnapshot();
  await new Promise((r) => setTimeout(r, 300));
  const n = hostNoise(start, readHostSnapshot(), [process.pid]);
  for (const v of [n.stealShare, n.iowaitShare, n.idleShare]) t.true(v >= 0 && v <= 1, String(v));
  t.true(n.stealShare + n.iowaitShare + n.idleShare <= 1 + 1e-12);
  t.true(n.topForeign.length <= 5);
});

test('a process name holding spaces and parentheses parses with the fields after it', (t) => {
  const p = parsePidStat('4242 (we (ird) name) S 7 4242 4242 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0 5555 1000 10 18446744073709551615');
  t.like(p, { pid: 4242, name: 'we (ird) name', ppid: 7, cpuTicks: 33, childTicks: 77, startTicks: 5555 });
});

const quiet: HostNoise = {
  wallMs: 600_000,
  cpuModel: 'test',
  cpuCount: 2,
  loadAverageStart: [0.2, 0.2, 0.2],
  loadAverageEnd: [1, 1, 1],
  memAvailableStartBytes: 3e9,
  memAvailableEndBytes: 2.9e9,
  memTotalBytes: 4e9,
  stealShare: 0.001,
  iowaitShare: 0.03,
  idleShare: 0.5,
  foreignCpuMs: 6000,
  topForeign: [{ name: 'sshd', cpuMs: 6000, processes: 1 }],
};

test('a quiet session is not flagged noisy', (t) => {
  t.deepEqual(noisySession(quiet), { noisy: false, reasons: [] });
});

test('steal at or above 2% flags a session noisy and says so', (t) => {
  const r = noisySession({ ...quiet, stealShare: 0.03 });
  t.true(r.noisy);
  t.deepEqual(r.reasons, ['steal 3.0% of CPU time (limit 2.0%)']);
});

test('other processes using 10% of the CPU capacity flag a session noisy and are named', (t) => {
  const foreignCpuMs = defaultNoiseRule.maxForeignCpuShare * quiet.wallMs * quiet.cpuCount;
  const r = noisySession({ ...quiet, foreignCpuMs, topForeign: [{ name: 'cc1plus', cpuMs: foreignCpuMs, processes: 4 }] });
  t.true(r.noisy);
  t.regex(r.reasons[0]!, /other processes used 10\.0% of CPU capacity .*: cc1plus 120\.0 s/);
});

test("a high load average at the start alone does not flag a session noisy: it counts the previous session's own launches too", (t) => {
  t.deepEqual(noisySession({ ...quiet, loadAverageStart: [2.5, 1, 1] }), { noisy: false, reasons: [] });
});

test('foreign CPU time stays within what the CPUs did less our own, whatever a process counts of its life before the window (made-up snapshots)', (t) => {
  const cpu = (busy: number, idle: number) => ({ user: busy, nice: 0, system: 0, idle, iowait: 0, irq: 0, softirq: 0, steal: 0 });
  const snap = (takenAtMs: number, c: ReturnType<typeof cpu>, processes: HostSnapshot['processes']) => ({
    takenAtMs,
    clockTicksPerSecond: 100,
    cpuModel: 'm',
    cpuCount: 2,
    loadAverage: [0, 0, 0] as [number, number, number],
    memAvailableBytes: 1,
    memTotalBytes: 2,
    cpu: c,
    processes,
  });
  // 10 s window on 2 CPUs: 2,000 ticks of capacity, 1,200 busy, 400 of them ours.
  const start = snap(0, cpu(0, 0), [{ pid: 10, ppid: 1, name: 'ours', startTicks: 5, cpuTicks: 0, childTicks: 0 }]);
  const end = snap(10_000, cpu(1200, 800), [
    { pid: 10, ppid: 1, name: 'ours', startTicks: 5, cpuTicks: 400, childTicks: 0 },
    // missed by the first snapshot: its whole life (50 s of CPU) would count
    { pid: 20, ppid: 1, name: 'daemon', startTicks: 1, cpuTicks: 5000, childTicks: 0 },
  ]);
  const n = hostNoise(start, end, [10]);
  t.is(n.foreignCpuMs, 8000);
  t.true(n.foreignCpuMs / (n.wallMs * n.cpuCount) <= 1);
  t.deepEqual(n.topForeign, [{ name: 'daemon', cpuMs: 8000, processes: 1 }]);
  t.regex(noisySession(n).reasons[0]!, /other processes used 40\.0% of CPU capacity/);
});
