// Real parts (root only; CI runs it as root): the estargz paths end to end on
// a small image (busybox plus an 8 MiB file no start-up reads), as
// `pipeline run` drives them. The prepare stage converts the pinned image to
// eStargz twice with ctr-remote in a private containerd (without a landmark,
// and with the landmark of the cohort's start-up) and pushes both into the
// loopback registry; each launch mounts its image lazily through
// estargz-mount (the stargz snapshotter's fs package, built by setup.sh),
// puts an overlay on it and starts the command with crun. Cold launches read
// a part of the image on demand and warm ones read nothing; an image that is
// not eStargz is a recorded failure naming it, never a silent full pull; and
// nothing is left running or mounted.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildImageTar } from '../harness/artifacts/build-image-tar.js';
import { buildOciLayout } from '../harness/artifacts/oci-layout.js';
import { sha256File } from '../harness/digest/sha256.js';
import { Database } from '../harness/db/duckdb.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { runCli, tempDir } from './helpers/cli.js';
import { processesMentioning } from './helpers/processes.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.serial.skip;
if (!isRoot) console.warn('real-estargz-paths: skipped, needs root; CI runs it as root');

const estargzPath = (description: string, ref: string, prefetch: boolean): string => `
  ${description.split(':')[0]}:
    description: ${description.split(':')[1]!.trim()}
    launch: ['{harness}/paths/estargz-launch.sh', '{state}', '{pair_dir}', '{workspace}', '${ref}', '--', '{command}']
    ${prefetch ? "env: { BENCHGRAPH_ESTARGZ_PREFETCH: '1' }" : ''}
    hooks:
      after_pair: [['{harness}/paths/cleanup-pair.sh', '{pair_dir}', --remove]]
      after_session: [['{harness}/paths/cleanup-pair.sh', '{session_dir}']]
    services: [registry]
    cold_check: lazy`;

function pipelineText(withFallback: boolean): string {
  return `experiment:
  name: estargz-mini
  question: Do the eStargz paths start a command from on-demand reads, cold and warm?
artifacts:
  images:
    bb: { kind: oci-layout, path: ./layout, tag: image, repository: test/bb }
services:
  registry:
    kind: docker-registry
    count_bytes: true
    data_from: prepare
    with: { estargz: true }
cohorts:
  shell:
    description: busybox sh reads /etc/os-release and prints its marker
    image: bb
    command: [/bin/sh, -c, 'grep -qx ID=busybox /etc/os-release && echo {marker}']
    expect: { exit_code: 0 }
paths:${estargzPath('estargz: the image converted without a landmark', '{services.registry.address}/{image.repository}:estargz', false)}${estargzPath(
    "estargz-prefetch: the image converted with the landmark of the cohort's start-up, prefetched",
    '{services.registry.address}/{image.repository}:estargz-{cohort}',
    true,
  )}${withFallback ? estargzPath('estargz-fallback: the pinned gzip image, which is not eStargz', '{services.registry.address}/{image.repository}@{image.manifest_digest}', false) : ''}
design: { preflight: 0, warmup_rounds: 0, sessions: 1, rounds: 2, seed: estargz-mini-1, states: [cold, warm], timeout_s: 120, disk_probe_mb: 0, canary: false }
analysis:
  comparisons: [{ a: estargz-prefetch, b: estargz }]
  bootstrap: { resamples: 200 }
stages:
  - { id: pin, uses: pin }
  - { id: prepare, uses: prepare, needs: [pin] }
  - { id: sample, uses: sample, needs: [prepare] }
  - { id: verify, uses: verify, needs: [sample, prepare] }
  - { id: analyze, uses: analyze, needs: [sample, verify] }
  - { id: report, uses: report, needs: [analyze, sample, prepare] }
`;
}

/** An OCI layout of busybox and an 8 MiB file of random bytes that no launch reads; its full pull in bytes (layer and config). */
async function layoutWithUnreadFile(dir: string): Promise<number> {
  const tar = join(dir, 'image.tar');
  await buildImageTar({ id: 'bb', kind: 'busybox-static', busybox: '/bin/busybox', osRelease: 'ID=busybox\n', repository: 'test/bb' }, tar, () => {});
  mkdirSync(join(dir, 'extra', 'data'), { recursive: true });
  execFileSync('sh', ['-c', `head -c 8M /dev/urandom > '${join(dir, 'extra', 'data', 'unread.bin')}'`]);
  execFileSync('tar', ['-rf', tar, '-C', join(dir, 'extra'), './data']);
  const pin = await buildOciLayout(tar, await sha256File(tar), join(dir, 'layout'));
  return pin.layers.reduce((n, l) => n + l.size, pin.configSize);
}

async function formalRows(dir: string): Promise<Record<string, unknown>[]> {
  const root = join(dir, '.data', 'stages', 'sample');
  const rows: Record<string, unknown>[] = [];
  for (const key of readdirSync(root)) {
    const db = await Database.open(join(root, key, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      rows.push(...(await db.all(`SELECT path, state, ok, content_bytes, failure_reason FROM samples WHERE phase = 'formal'`)).map((r) => ({ ...r, key })));
    } finally {
      db.close();
    }
  }
  return rows;
}

rootTest(
  'both eStargz paths start the command cold and warm from on-demand reads, and an image that is not eStargz is a recorded failure, not a full pull',
  async (t) => {
    t.timeout(900_000);
    const dir = tempDir('bg-estargz-');
    const fullPullBytes = await layoutWithUnreadFile(dir);
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(false));
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr);
    t.regex(r.stderr, /prepare: registry: test\/bb:estargz sha256:[0-9a-f]{64} in /);
    t.regex(r.stderr, /prepare: registry: test\/bb:estargz-shell sha256:[0-9a-f]{64} in /);
    const prepared = readdirSync(join(dir, '.data', 'stages', 'prepare'));
    const images = JSON.parse(readFileSync(join(dir, '.data', 'stages', 'prepare', prepared[0]!, 'outputs', 'images.json'), 'utf8')) as {
      images: Record<string, { manifest_digest: string; estargz_digest: string; estargz_cohort_digests: Record<string, string> }>;
    };
    const bb = images.images['bb']!;
    t.regex(bb.estargz_digest, /^sha256:/);
    t.notDeepEqual(bb.estargz_digest, bb.manifest_digest);
    t.deepEqual(Object.keys(bb.estargz_cohort_digests), ['shell']);

    const rows = await formalRows(dir);
    t.is(rows.length, 8);
    for (const row of rows) {
      const cell = `${String(row['path'])}/${String(row['state'])}`;
      t.true(row['ok'], `${cell}: ${String(row['failure_reason'])}`);
      const bytes = Number(row['content_bytes']);
      if (row['state'] === 'cold') t.true(bytes > 0 && bytes < fullPullBytes / 2, `${cell} read ${bytes} bytes on demand of a ${fullPullBytes}-byte image`);
      else t.is(bytes, 0, `${cell} reads nothing: the pair's cold launch fetched what it needs`);
    }

    // the same paths beside one pointed at the pinned gzip image: pin and prepare are reused, every launch of it fails naming why
    writeFileSync(join(dir, 'pipeline.yaml'), pipelineText(true));
    const f = await runCli(['run'], dir);
    t.is(f.code, 1, f.stderr);
    t.deepEqual(readdirSync(join(dir, '.data', 'stages', 'prepare')), prepared, 'the conversion is reused, not redone');
    const fallback = (await formalRows(dir)).filter((x) => x['path'] === 'estargz-fallback');
    t.is(fallback.length, 4);
    const cold = fallback.filter((x) => x['state'] === 'cold');
    for (const x of cold) {
      t.false(x['ok']);
      t.regex(
        String(x['failure_reason']),
        /not mounted lazily: estargz-mount: not eStargz: layer 0 \(sha256:[0-9a-f]{64}\) has no containerd\.io\/snapshot\/stargz\/toc\.digest annotation/,
      );
      t.is(Number(x['content_bytes']) < fullPullBytes, true, 'nothing was pulled whole');
    }
    for (const x of fallback.filter((y) => y['state'] === 'warm')) t.false(x['ok']);
    t.deepEqual(processesMentioning('estargz-mount'), [], 'no estargz-mount is left running');
    t.deepEqual(processesMentioning(join(dir, '.data')), []);
    t.deepEqual(mountsUnder(dir), []);
  },
);
