// Real engine tests (root only; CI runs them as root after setup.sh): the
// registry mirror on 127.0.0.1, a pull through a byte-counting proxy by a
// private Docker engine, and the docker path's before_cold hook.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../harness/services/service-kinds.js';
import { startCountingProxy } from '../harness/net/counting-proxy.js';
import { runCleanup } from '../harness/process/cleanup.js';
import { harnessDir } from '../harness/process/project-root.js';
import { buildImageTar } from '../harness/artifacts/build-image-tar.js';
import { buildOciLayout } from '../harness/artifacts/oci-layout.js';
import { pushOciLayout } from '../harness/artifacts/registry-push.js';
import { fullPullCheck } from '../harness/services/full-pull-check.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { sha256File } from '../harness/digest/sha256.js';
import { tempDir } from './helpers/cli.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.serial.skip;
if (!isRoot) console.warn('real-docker-path: skipped, needs root (mounts, dockerd); CI runs it as root');

const section = (kind: string, w: Record<string, unknown> = {}) => ({ kind, count_bytes: true, with: w });
const noLog = (): void => {};

function listensOn(port: number): string[] {
  const text = readFileSync('/proc/net/tcp', 'utf8') + readFileSync('/proc/net/tcp6', 'utf8');
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === '0A' && f[1]?.endsWith(`:${hexPort}`))
    .map((f) => f[1]!.split(':')[0]!);
}

test.after.always(async () => {
  await runCleanup();
});

rootTest('a pull by digest through the proxy receives every blob, and after the before_cold hook a cold launch re-pulls every blob', async (t) => {
  t.timeout(120_000);
  const dir = tempDir('bg-real-docker-');
  try {
    const tar = join(dir, 'image.tar');
    await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, noLog);
    const pin = await buildOciLayout(tar, await sha256File(tar), join(dir, 'oci'));

    mkdirSync(join(dir, 'storage'));
    const registry = await startService('registry', section('docker-registry', { read_only: false }), join(dir, 'storage'), join(dir, 'reg'), noLog);
    const port = Number(registry.endpoint.values['port']);
    t.deepEqual(listensOn(port), ['0100007F'], 'the registry listens on 127.0.0.1 only');
    await pushOciLayout(join(dir, 'oci'), registry.endpoint.address!, 'test/bb', 'pinned');

    const proxy = await startCountingProxy({ upstreamHost: '127.0.0.1', upstreamPort: registry.upstream!.port, contentPath: /^\/v2\/.+\/blobs\// });
    const engine = await startService('engine', section('docker-engine'), undefined, join(dir, 'eng'), noLog);
    const socket = engine.endpoint.socket!;
    const docker = engine.endpoint.values['docker']!;
    const ref = `${proxy.host}:${proxy.port}/test/bb@${pin.manifestDigest}`;
    const image = { layers: pin.layers, configSize: pin.configSize };
    const launch = () =>
      run(docker, ['-H', `unix://${socket}`, 'run', '--rm', '--network', 'none', ref, '/bin/sh', '-c', 'grep -qx ID=busybox /etc/os-release && echo READY']);

    proxy.begin('cold-1');
    t.is((await launch()).stdout.trim(), 'READY');
    const first = proxy.end();
    t.deepEqual(fullPullCheck(image, first.contentBytes), { ok: true, reason: null });

    proxy.begin('warm-1');
    await launch();
    t.is(proxy.end().contentBytes, 0, 'a warm launch pulls nothing');

    await run(join(harnessDir(), 'paths', 'docker-remove-image.sh'), [socket, pin.manifestDigest]);
    proxy.begin('cold-2');
    await launch();
    t.is(proxy.end().contentBytes, first.contentBytes, 'after the hook the cold launch re-pulls every blob');

    const dataRoot = engine.endpoint.values['data_root']!;
    await engine.stop();
    await proxy.close();
    await registry.stop();
    t.false(existsSync(socket), 'the engine socket is gone');
    t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
    t.deepEqual(listensOn(port), [], 'the registry port is closed');
    t.false(existsSync(dataRoot), 'the engine data root is removed');
  } finally {
    await runCleanup();
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
});
