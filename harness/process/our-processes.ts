// Effects: the processes a session counts as its own when it measures the
// host's other load: this process and its descendants (host-noise.ts follows
// parent links), plus daemons our paths started that detached from us
// (rclone --daemon, a private engine's containerd shims), found by a folder of
// ours in their command line.
import { readdirSync, readFileSync } from 'node:fs';

export function ourRootPids(folders: readonly string[]): number[] {
  const roots = [process.pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (folders.some((f) => cmd.includes(f))) roots.push(Number(entry));
    } catch {
      // ended while listed
    }
  }
  return roots;
}
