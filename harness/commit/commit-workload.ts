// The two workloads of seed 001, on one engine, for one cell and round.
// initial: a container from the base image writes F files of S bytes of
// random data (untimed setup, then the host syncs the engine's filesystem);
// measured: `docker commit`, after the untimed settle (experiment/settle.ts). incremental: a container from that committed
// image writes one file of C bytes; measured: `docker commit` again. Each
// measured commit is timed by the C launch helper (CLOCK_MONOTONIC around the
// docker CLI process); the engine's CPU (user and system), read/write system
// calls and bytes read are read from /proc
// right before and after it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Launcher } from '../launch/launcher.js';
import { docker, dockerArgv } from './docker-cli.js';
import type { CommitEngine } from './commit-engines.js';
import { processTreeUsage, usageDelta } from './process-usage.js';
import type { SettleSection } from '../config/pipeline-config.js';
import { settle, type SettleOutcome } from '../experiment/settle.js';

const run = promisify(execFile);

export type CommitState = 'initial' | 'incremental';

export interface WorkloadCell {
  totalBytes: number;
  fileCount: number;
  changeBytes: number;
}

export interface CommitObservation {
  state: CommitState;
  image: string;
  ok: boolean;
  failureReason: string | null;
  wallMs: number | null;
  engineCpuMs: number | null;
  engineUserCpuMs: number | null;
  engineSysCpuMs: number | null;
  engineSyscalls: number | null;
  diskReadBytes: number | null;
  readCharsBytes: number | null;
  layerBytes: number | null;
  /** The untimed settle right before the measured commit. */
  settled: SettleOutcome;
}

/** Pure: the shell script that writes `count` files of `bytes` random bytes under /random_files (perl when the image has it, else head). */
export function writeFilesScript(count: number, bytes: number, first = 1): string {
  const last = first + count - 1;
  const perl =
    `open(my $r, "<", "/dev/urandom") or die; binmode $r; for my $i (${first}..${last}) { open(my $f, ">", "/random_files/file_$i.bin") or die; binmode $f; ` +
    `my $left = ${bytes}; while ($left > 0) { my $n = $left < 1048576 ? $left : 1048576; read($r, my $buf, $n) == $n or die; print $f $buf; $left -= $n } close($f) or die }`;
  return [
    'set -e',
    'mkdir -p /random_files',
    `if command -v perl >/dev/null 2>&1; then perl -e '${perl}'; else`,
    `  i=${first}; while [ $i -le ${last} ]; do head -c ${bytes} /dev/urandom > /random_files/file_$i.bin; i=$((i+1)); done`,
    'fi',
  ].join('\n');
}

async function imageSize(engine: CommitEngine, image: string): Promise<number> {
  return Number((await docker({ socket: engine.socket }, ['image', 'inspect', '--format', '{{.Size}}', image])).trim());
}

async function measuredCommit(
  launcher: Launcher,
  engine: CommitEngine,
  container: string,
  image: string,
  parent: string,
  state: CommitState,
  timeoutMs: number,
  settleSettings: SettleSection,
): Promise<CommitObservation> {
  const settled = await settle(settleSettings);
  const before = processTreeUsage(engine.dockerdPid);
  const result = await launcher.launch({
    launchId: `${engine.method}-${image.replace(/[^A-Za-z0-9._-]/g, '_')}`,
    argv: dockerArgv(engine.socket, ['commit', container, image]),
    env: { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin', HOME: process.env['HOME'] ?? '/root' },
    cwd: '/',
    marker: 'BENCHGRAPH-NO-MARKER', // a commit prints an image id; the measure is Completion
    timeoutMs,
    tailBytes: 2048,
  });
  const used = usageDelta(before, processTreeUsage(engine.dockerdPid));
  const ok = result.state !== 'timeout' && result.exitCode === 0 && result.signal === null;
  const failureReason = ok
    ? null
    : result.state === 'timeout'
      ? result.failureReason
      : `docker commit exit ${result.exitCode}${result.signal ? ` (${result.signal})` : ''}: ${result.stderrTail.trim().slice(-400)}`;
  return {
    state,
    image,
    ok,
    failureReason,
    wallMs: ok ? result.completionMs : null,
    engineCpuMs: ok ? used.cpuMs : null,
    engineUserCpuMs: ok ? used.userCpuMs : null,
    engineSysCpuMs: ok ? used.sysCpuMs : null,
    engineSyscalls: ok ? used.syscalls : null,
    diskReadBytes: ok ? used.diskReadBytes : null,
    readCharsBytes: ok ? used.readCharsBytes : null,
    layerBytes: ok ? (await imageSize(engine, image)) - (await imageSize(engine, parent)) : null,
    settled,
  };
}

/** Runs both workloads; returns the observations and the two committed image names (remove them with removeWorkload). */
export async function runCommitWorkload(
  launcher: Launcher,
  engine: CommitEngine,
  baseImage: string,
  cell: WorkloadCell,
  tag: string,
  timeoutMs: number,
  settleSettings: SettleSection,
  signal?: AbortSignal,
): Promise<CommitObservation[]> {
  const t = { socket: engine.socket, signal };
  const initContainer = `bg-init-${tag}`;
  const incContainer = `bg-inc-${tag}`;
  const initImage = `benchgraph/commit:init-${tag}`;
  const incImage = `benchgraph/commit:inc-${tag}`;
  const perFile = Math.max(1, Math.round(cell.totalBytes / cell.fileCount));
  await docker(t, ['run', '--network', 'none', '--name', initContainer, baseImage, 'sh', '-c', writeFilesScript(cell.fileCount, perFile)]);
  await run('sync', ['-f', engine.dataRoot]);
  const initial = await measuredCommit(launcher, engine, initContainer, initImage, baseImage, 'initial', timeoutMs, settleSettings);
  if (!initial.ok) return [initial];
  await docker(t, [
    'run',
    '--network',
    'none',
    '--name',
    incContainer,
    initImage,
    'sh',
    '-c',
    `head -c ${cell.changeBytes} /dev/urandom > /random_files/file_${cell.fileCount + 1}.bin`,
  ]);
  await run('sync', ['-f', engine.dataRoot]);
  const incremental = await measuredCommit(launcher, engine, incContainer, incImage, initImage, 'incremental', timeoutMs, settleSettings);
  return [initial, incremental];
}

/** Removes the containers and images of one workload run (missing ones are fine). */
export async function removeWorkload(engine: CommitEngine, tag: string): Promise<void> {
  const t = { socket: engine.socket };
  await docker(t, ['rm', '-f', `bg-inc-${tag}`, `bg-init-${tag}`]).catch(() => undefined);
  await docker(t, ['rmi', '-f', `benchgraph/commit:inc-${tag}`, `benchgraph/commit:init-${tag}`]).catch(() => undefined);
}
