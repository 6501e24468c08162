// Benchmark (not a test), issue 18 item 7: what carries over from one pair to
// the next after the settle? The published default run shows it in the cold
// full-pull unpack: its system CPU time, not its user time, grows after a
// predecessor that deleted a large unpacked root. This probe times the same
// workload, `umoci unpack` of a pinned OCI layout (the oci-full path's unpack),
// by the project's C launch helper, after one of several preconditions in a
// seeded order, each trial starting from a long wash-out:
//   none          nothing before the settle;
//   delete        unpack a like tree untimed, sync, delete it (what an oci-full or gvisor-full pair leaves);
//   delete-wait   the same, then wait --wait-s before the settle;
//   free-anon     a process touches as much anonymous memory as the tree and exits (memory freed, no file system work);
//   keep          unpack a like tree untimed and keep it until the trial's end (file system work, nothing freed);
//   keep-wait     the same, then wait --wait-s before the settle;
//   keep-free     keep, then free-anon (does freeing memory undo what a kept tree leaves?).
// --conditions a,b,c picks some (default: the first five).
// Every trial then settles (sync, Dirty + Writeback below 8 MiB) and times
// the unpack, with the host's free-page reporting counter (the balloon's
// /sys/module/page_reporting/parameters/reported_kib, where it exists) read
// before the precondition, before and after the timed unpack.
//   node dist/bench/carryover-probe.js OCI_LAYOUT_DIR [--reps 5] [--washout-s 20] [--wait-s 20] [--out FILE.csv]
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Launcher } from '../harness/launch/launcher.js';
import { settle } from '../harness/experiment/settle.js';
import { seededRandom, shuffled } from '../harness/stats/seeded-random.js';
import { median } from '../harness/stats/quantile.js';

const run = promisify(execFile);
const flag = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const layout = process.argv[2];
if (!layout || !existsSync(join(layout, 'index.json'))) {
  console.error(
    'usage: node dist/bench/carryover-probe.js OCI_LAYOUT_DIR [--reps 5] [--washout-s 20] [--wait-s 20] [--out FILE.csv]  (a folder with index.json, e.g. a pin stage image output/oci)',
  );
  process.exit(2);
}
const reps = Number(flag('--reps', '5'));
const washoutMs = Number(flag('--washout-s', '20')) * 1000;
const waitMs = Number(flag('--wait-s', '20')) * 1000;
const out = flag('--out', 'carryover-probe.csv');
const ALL = ['none', 'delete', 'delete-wait', 'free-anon', 'keep', 'keep-wait', 'keep-free'] as const;
type Condition = (typeof ALL)[number];
const CONDITIONS = flag('--conditions', ALL.slice(0, 5).join(','))
  .split(',')
  .map((c) => {
    if (!(ALL as readonly string[]).includes(c)) {
      console.error(`--conditions: unknown condition ${c} (known: ${ALL.join(', ')})`);
      process.exit(2);
    }
    return c as Condition;
  });

const REPORTED = '/sys/module/page_reporting/parameters/reported_kib';
const reportedKib = (): number | null => (existsSync(REPORTED) ? Number(readFileSync(REPORTED, 'utf8').trim()) : null);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const env = { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin' };

const work = mkdtempSync(join(resolve(flag('--dir', '.data')), 'carryover-probe-'));
const tag = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as { manifests: { annotations?: Record<string, string> }[] };
const ref = tag.manifests[0]?.annotations?.['org.opencontainers.image.ref.name'] ?? 'image';
const unpackArgv = (dest: string): string[] => ['umoci', '--log', 'error', 'unpack', '--image', `${layout}:${ref}`, dest];
const treeKb = async (): Promise<number> => {
  const [cmd, ...args] = unpackArgv(join(work, 'size'));
  await run(cmd!, args);
  const { stdout } = await run('du', ['-sk', join(work, 'size')]);
  await rm(join(work, 'size'), { recursive: true, force: true });
  return Number(stdout.split('\t')[0]);
};

async function precondition(c: Condition, i: number, kb: number): Promise<void> {
  const tree = join(work, `pre-${i}`);
  if (c === 'none') return;
  const freeAnon = (): Promise<unknown> => run('python3', ['-c', `b = bytearray(${kb} * 1024)\nfor i in range(0, len(b), 4096): b[i] = 1`]);
  if (c === 'free-anon') {
    await freeAnon();
    return;
  }
  const [cmd, ...args] = unpackArgv(tree);
  await run(cmd!, args);
  await run('sync');
  if (c === 'keep') return;
  if (c === 'keep-wait') return await sleep(waitMs);
  if (c === 'keep-free') return void (await freeAnon());
  await rm(tree, { recursive: true, force: true });
  await run('sync');
  if (c === 'delete-wait') await sleep(waitMs);
}

const launcher = await Launcher.start();
const rows: string[] = ['trial,condition,completion_ms,user_cpu_ms,sys_cpu_ms,settle_ms,reported_kib_during_precondition,reported_kib_during_unpack'];
try {
  const kb = await treeKb();
  console.log(`tree ${Math.round(kb / 1024)} MiB; ${reps} trials per condition; wash-out ${washoutMs / 1000} s`);
  const order = shuffled(
    CONDITIONS.flatMap((c) => Array.from({ length: reps }, () => c)),
    seededRandom('carryover-probe'),
  );
  for (const [i, c] of order.entries()) {
    await run('sh', ['-c', 'rm -rf "$1"/pre-* "$1"/timed-*', 'sh', work]);
    await run('sync');
    await sleep(washoutMs);
    const r0 = reportedKib();
    await precondition(c, i, kb);
    const s = await settle({ enabled: true, dirty_kb: 8192, timeout_s: 30, poll_ms: 5 });
    const r1 = reportedKib();
    const dest = join(work, `timed-${i}`);
    const r = await launcher.launch({
      launchId: `probe-${i}`,
      argv: unpackArgv(dest),
      env,
      cwd: work,
      marker: '',
      ready: 'none',
      timeoutMs: 300_000,
      tailBytes: 4096,
    });
    const r2 = reportedKib();
    if (r.exitCode !== 0 || r.completionMs === null || r.userCpuMs === null || r.sysCpuMs === null)
      throw new Error(`unpack failed in trial ${i}: exit ${r.exitCode}`);
    const d = (a: number | null, b: number | null): string => (a === null || b === null ? '' : String(b - a));
    rows.push([i, c, r.completionMs.toFixed(1), r.userCpuMs.toFixed(1), r.sysCpuMs.toFixed(1), (s.settleMs ?? 0).toFixed(1), d(r0, r1), d(r1, r2)].join(','));
    console.log(`${i + 1}/${order.length} ${c}: ${r.completionMs.toFixed(0)} ms, sys ${r.sysCpuMs.toFixed(0)} ms, reported during unpack ${d(r1, r2)} kB`);
  }
} finally {
  await launcher.close();
  await rm(work, { recursive: true, force: true });
  await run('sync');
}
writeFileSync(out, rows.join('\n') + '\n');
const body = rows.slice(1).map((l) => l.split(','));
console.log('\ncondition     n  median completion  median sys  median user  median reported kB during unpack');
for (const c of CONDITIONS) {
  const g = body.filter((x) => x[1] === c);
  const col = (k: number): number => median(g.map((x) => Number(x[k])));
  console.log(
    `${c.padEnd(12)} ${String(g.length).padStart(2)}  ${col(2).toFixed(0).padStart(10)} ms  ${col(4).toFixed(0).padStart(7)} ms  ${col(3).toFixed(0).padStart(8)} ms  ${g[0]?.[7] === '' ? '–' : col(7).toFixed(0)}`,
  );
}
console.log(`rows: ${out}`);
