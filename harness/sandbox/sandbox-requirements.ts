// Doctor-style checks of the host parts effect rows need. Each check looks at
// the real host (files, binaries, kernel interfaces) and says whether the part
// is met and, when not, why, in a sentence the report prints as the reason a
// row is not runnable here.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, readlinkSync } from 'node:fs';

import type { Requirement } from '../contract/requirement.js';

export type { Requirement };

function onPath(bin: string): string | null {
  for (const dir of (process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':')) {
    const p = `${dir}/${bin}`;
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function check(id: string, part: string, test: () => { met: boolean; detail: string }): Requirement {
  try {
    return { id, part, ...test() };
  } catch (e) {
    return { id, part, met: false, detail: (e as Error).message.split('\n')[0]! };
  }
}

function binary(id: string, bin: string, pkg: string): Requirement {
  return check(id, `${bin} on PATH`, () => {
    const p = onPath(bin);
    return p ? { met: true, detail: p } : { met: false, detail: `${bin} is not installed (${pkg})` };
  });
}

function runscRestoreFlag(id: string, flag: string, what: string): Requirement {
  return check(id, `runsc restore --${flag} (${what})`, () => {
    const p = onPath('runsc');
    if (!p) return { met: false, detail: 'runsc is not installed' };
    const r = spawnSync(p, ['restore', '--help'], { encoding: 'utf8' }); // --help exits 128
    const help = `${r.stdout}${r.stderr}`;
    const version = execFileSync(p, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
    return new RegExp(`-${flag}\\b`).test(help)
      ? { met: true, detail: `${version} has restore --${flag}` }
      : { met: false, detail: `${version} has no 'restore --${flag}' flag` };
  });
}

/** Every requirement an effect row can name, checked now. */
export function sandboxRequirements(): Requirement[] {
  const root = process.getuid?.() === 0;
  return [
    check('root', 'running as root', () => ({ met: root, detail: root ? 'uid 0' : 'sandboxes, mounts, cgroups and drop_caches need root' })),
    binary('runsc', 'runsc', "Debian package 'runsc'"),
    check('runsc-uncompressed', 'a runsc that can write uncompressed checkpoint images', () => {
      const p = onPath('runsc');
      if (!p) return { met: false, detail: 'runsc is not installed' };
      const flags = execFileSync(p, ['flags'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const version = execFileSync(p, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
      return /compress/i.test(flags)
        ? { met: true, detail: `${version} has a compression flag` }
        : { met: false, detail: `${version} always writes flate-compressed images and has no flag to turn compression off ('runsc flags' names none)` };
    }),
    runscRestoreFlag('runsc-restore-background', 'background', "the source's dropped 'runsc restore --background'"),
    runscRestoreFlag('runsc-restore-direct', 'direct', "the source's dropped 'runsc restore --direct'"),
    check('runsc-netns', 'runsc --network=sandbox in a private network namespace', () => {
      // Seen here: `ip netns exec NS runsc --network=sandbox run` with the spec's
      // netns path fails with "cannot run with network enabled in root network
      // namespace"; runsc decides that by comparing with /proc/1/ns/net.
      try {
        readlinkSync('/proc/1/ns/net');
        return { met: true, detail: '/proc/1/ns/net is readable' };
      } catch (e) {
        return {
          met: false,
          detail: `/proc/1/ns/net cannot be read here (${(e as NodeJS.ErrnoException).code}), and runsc --network=sandbox then fails in any namespace with "cannot run with network enabled in root network namespace"`,
        };
      }
    }),
    check('drop-caches', 'writable /proc/sys/vm/drop_caches', () =>
      writable('/proc/sys/vm/drop_caches') ? { met: true, detail: 'writable' } : { met: false, detail: '/proc/sys/vm/drop_caches is not writable (not root?)' },
    ),
    check('blkio-throttle', 'cgroup v1 blkio.throttle.read_bps_device', () =>
      existsSync('/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device')
        ? { met: true, detail: '/sys/fs/cgroup/blkio' }
        : { met: false, detail: 'no cgroup v1 blkio hierarchy at /sys/fs/cgroup/blkio (a cgroup v2-only host)' },
    ),
    binary('losetup', 'losetup', "Debian package 'mount'"),
    binary('mkfs-ext4', 'mkfs.ext4', "Debian package 'e2fsprogs'"),
    binary('ip', 'ip', "Debian package 'iproute2'"),
    binary('curl', 'curl', "Debian package 'curl'"),
    binary('crun', 'crun', "Debian package 'crun'"),
    binary('firecracker', 'firecracker', 'no Debian package; Firecracker is not part of this setup'),
    check('kvm', 'usable /dev/kvm', () => {
      if (!existsSync('/dev/kvm')) return { met: false, detail: 'no /dev/kvm (no hardware virtualization exposed to this machine)' };
      if (!writable('/dev/kvm')) return { met: false, detail: '/dev/kvm is not writable' };
      // Seen here: /dev/kvm opens, but the CPU shows no vmx/svm flag and runsc --platform=kvm hung (killed after 20 s).
      const flags = readFileSync('/proc/cpuinfo', 'utf8');
      return /\b(vmx|svm)\b/.test(flags)
        ? { met: true, detail: '/dev/kvm is writable and the CPU has vmx/svm' }
        : {
            met: false,
            detail: '/dev/kvm opens, but the CPU shows no vmx or svm flag (a guest without nested virtualization); runsc --platform=kvm hung here',
          };
    }),
    check('zswap', 'zswap, and a swap file the row can make (root, mkswap, swapon)', () => {
      const param = '/sys/module/zswap/parameters/enabled';
      if (!existsSync(param)) return { met: false, detail: 'the kernel has no zswap' };
      if (!writable(param)) return { met: false, detail: `${param} is not writable (needs root)` };
      const missing = ['mkswap', 'swapon', 'swapoff'].filter((b) => !onPath(b));
      if (missing.length) return { met: false, detail: `${missing.join(', ')} not on PATH (Debian package 'util-linux')` };
      return {
        met: true,
        detail: `zswap enabled=${readFileSync(param, 'utf8').trim()} before the row; the row makes its own swap file and enables zswap while it runs`,
      };
    }),
    check('memcg', 'cgroup v1 memory controller (a limit on one sandbox reclaims its pages)', () =>
      existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') && writable('/sys/fs/cgroup/memory/cgroup.procs')
        ? { met: true, detail: '/sys/fs/cgroup/memory' }
        : { met: false, detail: 'no writable cgroup v1 memory hierarchy at /sys/fs/cgroup/memory' },
    ),
  ];
}

/** The unmet requirements among `ids` (unknown ids are unmet, naming themselves). */
export function unmetOf(all: readonly Requirement[], ids: readonly string[]): Requirement[] {
  return ids.map((id) => all.find((r) => r.id === id) ?? { id, part: id, met: false, detail: `unknown requirement '${id}'` }).filter((r) => !r.met);
}
