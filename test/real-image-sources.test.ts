// Real parts, root: images the user brings (an OCI archive, an OCI layout, a
// `docker save` of an image in a private engine, an image in a loopback
// registry) go through pin -> prepare -> sample on crun (pulled from the
// registry mirror, and read lazily as erofs from nginx), keyed by digest; a
// digest mismatch is refused before anything is frozen; a two-platform index
// resolves to the host's manifest; zstd layers are refused clearly.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { addTwoPlatformIndex, addZstdImage, busyboxLayout, skopeoCopy } from './helpers/busybox-oci.js';
import { Database } from '../harness/db/duckdb.js';
import { startService } from '../harness/services/service-kinds.js';
import { pushOciLayout } from '../harness/artifacts/registry-push.js';
import type { Pins } from '../harness/contract/exchange-files.js';
import { mountsUnder } from '../harness/process/mount-table.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.skip;
if (!isRoot) console.warn('real-image-sources: skipped, needs root');

function pipelineText(image: string, stages = 'full'): string {
  const head = `experiment:
  name: images
  question: Does an image of my own start on crun?
artifacts:
  images:
    mine:
${image
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
`;
  if (stages === 'pin') return head + 'stages:\n  - { id: pin, uses: pin }\n';
  return (
    head +
    `services:
  registry:
    kind: docker-registry
    count_bytes: true
    data_from: prepare
  cache:
    kind: nginx-files
    count_bytes: true
    data_from: prepare
cohorts:
  shell:
    image: mine
    command: [/bin/sh, -c, 'grep -qx ID=busybox /etc/os-release && echo {marker}']
paths:
  crun:
    launch: ['{harness}/paths/oci-full-launch.sh', '{state}', '{pair_dir}', '{workspace}', '{services.registry.address}/{image.repository}@{image.manifest_digest}', '--', '{command}']
    hooks:
      after_pair: [['{harness}/paths/cleanup-pair.sh', '{pair_dir}', --remove]]
      after_session: [['{harness}/paths/cleanup-pair.sh', '{session_dir}']]
    services: [registry]
    cold_check: full-pull
  lazy:
    launch: ['{harness}/paths/lazy-launch.sh', '{state}', '{pair_dir}', '{workspace}', '{services.cache.url}/', '{image.erofs_file}', '--', '{command}']
    hooks:
      after_pair: [['{harness}/paths/cleanup-pair.sh', '{pair_dir}', --remove]]
      after_session: [['{harness}/paths/cleanup-pair.sh', '{session_dir}']]
    services: [cache]
design: { preflight: 1, warmup_rounds: 1, rounds: 2, seed: images-1, timeout_s: 60 }
stages:
  - { id: pin, uses: pin }
  - { id: prepare, uses: prepare, needs: [pin] }
  - { id: warmup, uses: warmup, needs: [prepare] }
  - { id: sample, uses: sample, needs: [warmup, prepare] }
`
  );
}

function pinsOf(dir: string): Pins {
  const root = join(dir, '.data', 'stages', 'pin');
  const key = readdirSync(root)[0]!;
  return JSON.parse(readFileSync(join(root, key, 'outputs', 'pins.json'), 'utf8')) as Pins;
}

async function formalRows(dir: string): Promise<{ n: number; failed: number }> {
  const root = join(dir, '.data', 'stages', 'sample');
  const db = await Database.open(join(root, readdirSync(root)[0]!, 'outputs', 'samples.duckdb'), { readOnly: true });
  try {
    const [row] = await db.all(`SELECT count(*) AS n, count(*) FILTER (WHERE NOT ok) AS failed FROM samples WHERE phase = 'formal'`);
    return { n: Number(row!['n']), failed: Number(row!['failed']) };
  } finally {
    db.close();
  }
}

async function runAndCheck(t: import('ava').ExecutionContext, dir: string): Promise<Pins> {
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(
    await formalRows(dir),
    { n: 8, failed: 0 },
    'every formal launch passed: the OCI layout (pulled from the registry) and the erofs image (read lazily) both start on crun',
  );
  t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
  return pinsOf(dir);
}

rootTest(
  'an OCI archive pinned by digest runs through pin, prepare and sample; moving it reruns nothing; a wrong digest is refused with exit 2 and nothing frozen changes',
  async (t) => {
    t.timeout(300_000);
    const dir = tempDir('bg-img-archive-');
    const b = await busyboxLayout(join(dir, 'src'));
    skopeoCopy(`oci:${b.layout}:image`, `oci-archive:${join(dir, 'my-image.tar')}`);
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: oci-archive\nfile: ./my-image.tar\ndigest: ${b.manifestDigest}`));
    const pins = await runAndCheck(t, dir);
    const img = pins.images['mine']!;
    t.is(img.manifestDigest, b.manifestDigest);
    t.is(img.source?.sourceDigest, b.manifestDigest);
    t.is(img.source?.pinnedDigest, b.manifestDigest);
    t.is(img.layers[0]!.mediaType, 'application/vnd.oci.image.layer.v1.tar+gzip');

    mkdirSync(join(dir, 'elsewhere'));
    renameSync(join(dir, 'my-image.tar'), join(dir, 'elsewhere', 'renamed.tar'));
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: oci-archive\nfile: ./elsewhere/renamed.tar\ndigest: ${b.manifestDigest}`));
    const moved = await runCli(['run'], dir);
    t.is(moved.code, 0, moved.stderr);
    t.regex(moved.stderr + moved.stdout, /done: 0 ran/, 'the key is the digest, not the path');

    const lock = readFileSync(join(dir, 'pipeline.lock'), 'utf8');
    const frozen = readdirSync(join(dir, '.data', 'stages'), { recursive: true }).sort();
    const wrong = `sha256:${'0'.repeat(64)}`;
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: oci-archive\nfile: ./elsewhere/renamed.tar\ndigest: ${wrong}`));
    const refused = await runCli(['run'], dir);
    t.is(refused.code, 2, refused.stderr);
    t.regex(
      refused.stderr,
      new RegExp(
        `^error: pipeline\\.yaml:9:15: artifacts\\.images\\.mine\\.digest: image mine: digest mismatch: the pipeline pins ${wrong}, .* has ${b.manifestDigest}`,
        'm',
      ),
    );
    t.notRegex(refused.stderr, /\n\s+at /);
    t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), lock, 'the lock is unchanged');
    t.deepEqual(readdirSync(join(dir, '.data', 'stages'), { recursive: true }).sort(), frozen, 'nothing new is frozen');
  },
);

rootTest('an OCI layout named by path and tag runs through pin, prepare and sample', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-img-layout-');
  const b = await busyboxLayout(join(dir, 'src'));
  skopeoCopy(`oci:${b.layout}:image`, `oci:${join(dir, 'my-layout')}:v1`);
  writeFileSync(join(dir, 'pipeline.yaml'), pipelineText('kind: oci-layout\npath: ./my-layout\ntag: v1'));
  const pins = await runAndCheck(t, dir);
  t.is(pins.images['mine']!.manifestDigest, b.manifestDigest);
});

rootTest('a docker save of an image in a private engine, pinned by its image id, runs through pin, prepare and sample', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-img-docker-');
  const b = await busyboxLayout(join(dir, 'src'));
  mkdirSync(join(dir, 'engine'));
  const engine = await startService('engine', { kind: 'docker-engine', count_bytes: false, with: {} }, undefined, join(dir, 'engine'), () => {});
  let imageId: string;
  try {
    const host = engine.endpoint.values['host']!;
    const docker = engine.endpoint.values['docker']!;
    execFileSync(docker, ['-H', host, 'import', b.rootTar, 'mine/busybox:1'], { stdio: 'ignore' });
    imageId = execFileSync(docker, ['-H', host, 'inspect', '--format', '{{.Id}}', 'mine/busybox:1'], { encoding: 'utf8' }).trim();
    execFileSync(docker, ['-H', host, 'save', '-o', join(dir, 'saved.tar'), 'mine/busybox:1']);
  } finally {
    await engine.stop();
  }
  writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: docker-archive\nfile: ./saved.tar\ndigest: ${imageId}`));
  const pins = await runAndCheck(t, dir);
  const img = pins.images['mine']!;
  t.is(img.source?.sourceConfigDigest, imageId, 'the image id is the config digest at the source');
  t.not(img.configDigest, imageId, "skopeo's OCI copy has a converted config");
  t.is(img.source?.pinnedDigest, imageId);
  t.is(img.source?.sourceMediaType, 'application/vnd.docker.distribution.manifest.v2+json');
  t.not(img.manifestDigest, img.source?.sourceDigest, 'skopeo converted the Docker manifest to OCI; both digests are recorded');
});

rootTest('an image pushed to a loopback registry is pinned by digest as if remote, and the registry host is not part of the key', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-img-registry-');
  const b = await busyboxLayout(join(dir, 'src'));
  mkdirSync(join(dir, 'remote'));
  const remote = await startService('remote', { kind: 'docker-registry', count_bytes: false, with: {} }, undefined, join(dir, 'remote'), () => {});
  try {
    const address = remote.endpoint.address!;
    await pushOciLayout(b.layout, address, 'team/busybox', 'latest');
    const ref = `${address}/team/busybox:latest@${b.manifestDigest}`;
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: registry\nreference: ${ref}\ntls_verify: false`));
    const pins = await runAndCheck(t, dir);
    t.is(pins.images['mine']!.source?.sourceDigest, b.manifestDigest);
    const keyBefore = readFileSync(join(dir, 'pipeline.lock'), 'utf8');
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: registry\nreference: 127.0.0.2:1/other/name@${b.manifestDigest}\ntls_verify: false`));
    const plan = await runCli(['run', '--dry-run'], dir);
    t.is(plan.code, 0, plan.stderr);
    t.regex(plan.stdout, /pin\s+would-reuse/);
    t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), keyBefore);
  } finally {
    await remote.stop();
  }
});

rootTest('a two-platform index in an OCI layout resolves to the host platform, recording both digests', async (t) => {
  t.timeout(120_000);
  const dir = tempDir('bg-img-index-');
  const b = await busyboxLayout(join(dir, 'src'));
  const { indexDigest, arm64Digest } = addTwoPlatformIndex(b);
  writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: oci-layout\npath: ./src/layout\ntag: multi\ndigest: ${indexDigest}`, 'pin'));
  const r = await runCli(['run'], dir);
  t.is(r.code, 0, r.stderr);
  const img = pinsOf(dir).images['mine']!;
  const host = process.arch === 'x64' ? b.manifestDigest : process.arch === 'arm64' ? arm64Digest : null;
  if (host) t.is(img.manifestDigest, host);
  t.is(img.source?.indexDigest, indexDigest);
  t.is(img.source?.platformManifestDigest, img.manifestDigest);
  t.regex(r.stderr, new RegExp(`index ${indexDigest}, linux/\\w+ manifest ${img.manifestDigest}`));
});

rootTest('an image with a zstd layer is refused with exit 2, naming the layer and how to recompress it', async (t) => {
  t.timeout(120_000);
  const dir = tempDir('bg-img-zstd-');
  const b = await busyboxLayout(join(dir, 'src'));
  addZstdImage(b);
  writeFileSync(join(dir, 'pipeline.yaml'), pipelineText('kind: oci-layout\npath: ./src/layout\ntag: zstd', 'pin'));
  const r = await runCli(['run'], dir);
  t.is(r.code, 2, r.stderr);
  t.regex(r.stderr, /image mine: layer sha256:[0-9a-f]{64} is application\/vnd\.oci\.image\.layer\.v1\.tar\+zstd; .*skopeo copy --dest-compress-format gzip/);
});

rootTest('pipeline audit re-checks a pinned image by its digests and names a blob whose content changed', async (t) => {
  t.timeout(120_000);
  const dir = tempDir('bg-img-audit-');
  const b = await busyboxLayout(join(dir, 'src'));
  writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(`kind: oci-layout\npath: ./src/layout\ntag: image\ndigest: ${b.manifestDigest}`, 'pin'));
  t.is((await runCli(['run'], dir)).code, 0);
  const clean = await runCli(['audit'], dir);
  t.is(clean.code, 0, clean.stderr);
  const pins = pinsOf(dir);
  const root = join(dir, '.data', 'stages', 'pin');
  const layer = pins.images['mine']!.layers[0]!.digest.slice(7);
  const blob = join(root, readdirSync(root)[0]!, 'outputs', pins.images['mine']!.ociDir, 'blobs', 'sha256', layer);
  rmSync(blob);
  writeFileSync(blob, 'not the layer');
  const r = await runCli(['audit'], dir);
  t.is(r.code, 1, r.stderr);
  const named = (r.stdout + r.stderr).split('\n').filter((l) => /^CHANGED /.test(l) && l.includes(`blobs/sha256/${layer}`));
  t.is(named.length, 2, 'named by the re-hash of the frozen files and by the digest check');
});
