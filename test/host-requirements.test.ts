// The requirement check a session job runs on its node before it starts
// anything: one line naming every unmet requirement with its remedy.
import test from 'ava';
import { requirements, unmetRequirements, type Requirement } from '../harness/artifacts/host-requirements.js';

test('every unmet requirement is named with its detail and remedy, and a host that meets all gives none', (t) => {
  const reqs: Requirement[] = [
    { id: 'binary-dockerd', part: 'binary dockerd', met: false, detail: 'not found', remedy: 'apt-get install -y docker.io' },
    { id: 'root', part: 'root', met: true, detail: 'running as root', remedy: 'run as root' },
    { id: 'dev-fuse', part: '/dev/fuse', met: false, detail: 'missing', remedy: 'modprobe fuse' },
  ];
  t.is(unmetRequirements(reqs), 'binary dockerd: not found (apt-get install -y docker.io); /dev/fuse: missing (modprobe fuse)');
  t.is(unmetRequirements(reqs.map((r) => ({ ...r, met: true }))), null);
});

test('the requirements of this host include the binaries of the real paths, the kernel file systems and root', (t) => {
  const names = requirements().map((r) => r.part);
  for (const n of ['binary dockerd', 'binary rclone', 'kernel file system erofs', 'kernel file system overlay', '/dev/fuse', 'root'])
    t.true(names.includes(n), n);
});
