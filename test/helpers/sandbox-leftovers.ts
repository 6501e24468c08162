// What a sandbox row folder can leave on the host, looked up on the real
// host: runsc (or any) processes naming the folder, mounts at or under it,
// loop devices backed by a file under it, blkio and memory cgroups named after it, and
// the folder itself.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { mountsUnder } from '../../harness/process/mount-table.js';
import { processesMentioning } from './processes.js';

export { processesMentioning };

function loopsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const dev of readdirSync('/sys/block').filter((d) => d.startsWith('loop'))) {
    try {
      const b = readFileSync(`/sys/block/${dev}/loop/backing_file`, 'utf8').trim();
      if (b.startsWith(dir + '/')) out.push(`${dev} ${b}`);
    } catch {
      /* not attached */
    }
  }
  return out;
}

function cgroupsOf(dir: string): string[] {
  // throttled-disk.sh's blkio groups and gvisor-app-memcg.sh's memory groups
  return ['/sys/fs/cgroup/blkio', '/sys/fs/cgroup/memory'].flatMap((root) =>
    existsSync(root)
      ? readdirSync(root)
          .filter((n) => n.startsWith(`benchgraph-${basename(dir)}-`))
          .map((n) => `${root}/${n}`)
      : [],
  );
}

export function sandboxLeftovers(dir: string): string[] {
  return [
    ...processesMentioning(dir).map((p) => `process ${p}`),
    ...mountsUnder(dir).map((m) => `mount ${m}`),
    ...loopsUnder(dir).map((l) => `loop ${l}`),
    ...cgroupsOf(dir).map((c) => `cgroup ${c}`),
    ...(existsSync(dir) ? [`folder ${dir}`] : []),
  ];
}
