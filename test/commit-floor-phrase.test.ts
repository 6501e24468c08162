// What the naive floor is made of: the /proc parsing of the engine's user and
// system CPU and system calls, and the report's sentence on made-up analyses
// (a test of our own parsing and wording).
import test from 'ava';
import type { CellStat, CommitAnalysis } from '../harness/commit/commit-analysis.js';
import { floorCell, naiveFloorSentence } from '../harness/commit/commit-phrases.js';
import { parseIo, parseStat, processTreeUsage, usageDelta } from '../harness/commit/process-usage.js';

test('a stat line splits into user (utime + cutime) and system (stime + cstime) ticks, even with a command name holding ") ("', (t) => {
  // fields 14-17: utime stime cutime cstime
  const line = '42 (a) (b c) S 7 42 42 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0 100 1000 10';
  const s = parseStat(line);
  t.is(s.pid, 42);
  t.is(s.ppid, 7);
  t.is(s.userTicks, 11 + 33);
  t.is(s.sysTicks, 22 + 44);
  t.is(s.cpuTicks, 110);
});

test('system calls are syscr + syscw of /proc/PID/io', (t) => {
  const io = 'rchar: 100\nwchar: 5\nsyscr: 7\nsyscw: 3\nread_bytes: 4096\nwrite_bytes: 0\ncancelled_write_bytes: 0\n';
  t.deepEqual(parseIo(io), { readBytes: 4096, rchar: 100, syscalls: 10 });
});

test('the usage of this process tree counts its own system calls and CPU', (t) => {
  const before = processTreeUsage(process.pid);
  let x = 0;
  for (let i = 0; i < 2e7; i++) x += i % 7;
  for (let i = 0; i < 50; i++) processTreeUsage(process.pid); // reads /proc: read system calls
  const d = usageDelta(before, processTreeUsage(process.pid));
  t.true(x > 0);
  t.true(d.syscalls > 0);
  t.true(d.userCpuMs + d.sysCpuMs > 0);
  t.true(Math.abs(d.cpuMs - d.userCpuMs - d.sysCpuMs) < 1e-6);
});

const cell = (
  dims: Record<string, number>,
  method: string,
  state: string,
  wall: number,
  cpu: number | null,
  user: number | null = null,
  sys: number | null = null,
): CellStat => ({
  cell: JSON.stringify(dims),
  dims,
  method,
  state,
  n: 6,
  failed: 0,
  p50WallMs: wall,
  p50EngineCpuMs: cpu,
  p50EngineUserCpuMs: user,
  p50EngineSysCpuMs: sys,
  p50EngineSyscalls: user === null ? null : 1234,
  p50DiskReadBytes: null,
  p50ReadCharsBytes: null,
  p50LayerBytes: null,
});
const small = { total_mb: 100, file_count: 100, change_bytes: 1024 };
const big = { total_mb: 100, file_count: 100000, change_bytes: 1024 };

test('made-up cells: the floor sentence states the smallest cell, both engines and the share of the extra wall time the extra CPU explains', (t) => {
  const a = {
    cells: [
      cell(big, 'naive', 'incremental', 2500, 2900),
      cell(big, 'native', 'incremental', 60, 50),
      cell(small, 'naive', 'incremental', 480, 280, 200, 80),
      cell(small, 'native', 'incremental', 65, 50, 30, 20),
    ],
  } as unknown as CommitAnalysis;
  t.deepEqual(floorCell(a), small);
  const s = naiveFloorSentence(a)!;
  t.regex(
    s,
    /at 100 MB in 100 files, 1 KB change, the naive incremental commit takes 480 ms \(P50\), its engine 280 ms of CPU \(200 ms user, 80 ms system; 1234 read\/write system calls\)/,
  );
  t.regex(s, /against native's 65 ms and 50 ms/);
  // extra CPU 280 - 50 = 230 ms of an extra wall time of 480 - 65 = 415 ms: 55%; the other 415 - 230 = 185 ms is not engine CPU
  // (not 480 - 280 = 200 ms, the naive commit's own wall minus its own CPU)
  t.regex(s, /230 ms for the naive diff walking the lower and merged trees, is 55% of the extra wall time of 415 ms; the other 185 ms of it is not engine CPU/);
});

test('made-up cells of a run before user and system CPU were recorded: the total CPU only; no CPU figures, no sentence', (t) => {
  const a = { cells: [cell(small, 'naive', 'incremental', 480, 280), cell(small, 'native', 'incremental', 65, 50)] } as unknown as CommitAnalysis;
  t.regex(naiveFloorSentence(a)!, /its engine 280 ms of CPU, against/);
  const none = { cells: [cell(small, 'naive', 'incremental', 480, null), cell(small, 'native', 'incremental', 65, null)] } as unknown as CommitAnalysis;
  t.is(naiveFloorSentence(none), null);
});
