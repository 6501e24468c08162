// The one OCI config.json writer (harness/paths/oci-config-lib.sh, oci_config)
// as oci-run.sh, gvisor-run.sh and gvisor-bundle.sh use it. The launch scripts
// run with a stub `unshare` first on PATH (named so: this tests our config
// writing, not a container start), so each stops right after writing its
// config.json; nothing is mounted or started.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { tempDir } from './helpers/cli.js';

const root = projectRoot();
let dir = '';
let env: NodeJS.ProcessEnv = {};

test.before(() => {
  dir = tempDir('bg-oci-config-');
  mkdirSync(join(dir, 'stub'));
  writeFileSync(join(dir, 'stub', 'unshare'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'stub', 'unshare'), 0o755);
  mkdirSync(join(dir, 'lower'));
  env = { ...process.env, PATH: `${join(dir, 'stub')}:${process.env['PATH']}` };
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

type Config = {
  ociVersion: string;
  process: { args: string[]; env: string[]; capabilities: Record<string, string[]>; rlimits?: unknown[] };
  root: { path: string; readonly: boolean };
  mounts: { destination: string }[];
  linux: { namespaces: { type: string; path?: string }[]; maskedPaths?: string[] };
};
const read = (file: string): Config => JSON.parse(readFileSync(file, 'utf8')) as Config;
const tricky = ['sh', '-c', 'echo "a\\"b" \\ x\ttab'];

test('stub unshare: oci-run.sh writes a crun config with the command intact, the NOFILE limit and the masked paths', (t) => {
  execFileSync('sh', [join(root, 'harness/paths/oci-run.sh'), join(dir, 'lower'), join(dir, 'ws1'), '--', ...tricky], { env });
  const c = read(join(dir, 'ws1', 'config.json'));
  t.is(c.ociVersion, '1.0.2');
  t.deepEqual(c.process.args, tricky);
  t.is(c.process.rlimits?.length, 1);
  t.is(c.root.readonly, false);
  t.deepEqual(
    c.mounts.map((m) => m.destination),
    ['/proc', '/dev', '/dev/pts', '/dev/shm', '/dev/mqueue', '/sys'],
  );
  t.true((c.linux.maskedPaths ?? []).includes('/proc/kcore'));
  t.deepEqual(c.process.capabilities['bounding'], c.process.capabilities['permitted']);
});

test('stub unshare: gvisor-run.sh writes a runsc config without rlimits or masked paths', (t) => {
  execFileSync('sh', [join(root, 'harness/paths/gvisor-run.sh'), join(dir, 'lower'), join(dir, 'ws2'), '--', '/bin/true', 'x y'], { env });
  const c = read(join(dir, 'ws2', 'config.json'));
  t.is(c.ociVersion, '1.0.0');
  t.deepEqual(c.process.args, ['/bin/true', 'x y']);
  t.is(c.process.rlimits, undefined);
  t.is(c.linux.maskedPaths, undefined);
  t.deepEqual(
    c.mounts.map((m) => m.destination),
    ['/proc', '/dev', '/dev/shm', '/sys'],
  );
});

test('gvisor-bundle.sh writes a read-only bundle whose network namespace is NETNS_PATH when given', (t) => {
  execFileSync('sh', [join(root, 'harness/sandbox/gvisor-bundle.sh'), join(dir, 'lower'), join(dir, 'b1'), '--', '/bin/echo', 'hi'], { env });
  execFileSync('sh', [join(root, 'harness/sandbox/gvisor-bundle.sh'), join(dir, 'lower'), join(dir, 'b2'), '--', '/bin/echo', 'hi'], {
    env: { ...env, NETNS_PATH: '/run/netns/made-up' },
  });
  const own = read(join(dir, 'b1', 'config.json'));
  const shared = read(join(dir, 'b2', 'config.json'));
  t.true(own.root.readonly);
  t.deepEqual(own.process.capabilities['effective'], ['CAP_KILL', 'CAP_NET_BIND_SERVICE']);
  t.deepEqual(own.linux.namespaces[1], { type: 'network' });
  t.deepEqual(shared.linux.namespaces[1], { type: 'network', path: '/run/netns/made-up' });
  t.deepEqual(
    own.mounts.map((m) => m.destination),
    ['/proc', '/dev', '/tmp', '/sys'],
  );
});
