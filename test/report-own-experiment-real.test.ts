// Real (root, crun and runsc; skipped otherwise): a new user's own experiment,
// as `pipeline init DIR` starts it and docs/WRITING-AN-EXPERIMENT.md goes on:
// crun against runsc on one busybox image brought twice, as an OCI archive and
// as a docker-archive, no services. Its published files say only what this
// experiment has: no Docker, mmdebstrap, registry, pull, clients or source
// (the host's own virtualization, a measured fact of the machine, is the one
// value set aside), the pinned-tools list names only tools it used, and the
// first screen says the two images are byte-identical after pin.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

const has = (bin: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const ready = process.getuid?.() === 0 && ['crun', 'runsc', 'umoci', 'skopeo'].every(has) && existsSync('/bin/busybox');
const realTest = ready ? test.serial : test.serial.skip;
if (!ready) console.warn('report-own-experiment-real: skipped, needs root, crun, runsc, umoci, skopeo and /bin/busybox');

/** One path: cold unpacks the pinned root file system into the pair's folder, warm reuses it, then RUNNER runs the command. */
const path = (description: string, runner: string): unknown => ({
  description,
  launch: [
    'sh',
    '-c',
    '[ -d "$1/root/bin" ] || { mkdir -p "$1/root" && tar -xf "$2" -C "$1/root"; } && shift 2 && exec "$@"',
    'unpack',
    '{pair_dir}',
    '{image.dir}/{image.tarFile}',
    `{harness}/paths/${runner}`,
    '{pair_dir}/root',
    '{workspace}',
    '--',
    '{command}',
  ],
  hooks: { after_pair: [['rm', '-rf', '{pair_dir}']] },
});

const cohort = (image: string): unknown => ({
  description: `busybox sh from the ${image} image checks /etc/os-release and prints its marker`,
  image,
  command: ['/bin/sh', '-c', 'grep -qx ID=busybox /etc/os-release && echo {marker}'],
  expect: { exit_code: 0 },
});

const pipeline = {
  experiment: {
    name: 'my-runtimes',
    question: 'How much longer does runsc take than crun to start a shell from my image, and does the image format matter?',
    unmeasured: ['Concurrent start-ups.'],
  },
  artifacts: {
    images: {
      'as-oci': { kind: 'oci-archive', file: './my-image.tar' },
      'as-docker': { kind: 'docker-archive', file: './my-image-docker.tar' },
    },
  },
  cohorts: { 'shell-oci': cohort('as-oci'), 'shell-docker': cohort('as-docker') },
  paths: {
    crun: path('unpack the pinned root once per pair; crun run', 'oci-run.sh'),
    runsc: path('the same unpack; runsc (ptrace, no network) run', 'gvisor-run.sh'),
  },
  design: { preflight: 1, warmup_rounds: 1, sessions: 1, rounds: 3, seed: 'my-runtimes-1', timeout_s: 60 },
  analysis: { comparisons: [{ a: 'runsc', b: 'crun' }], bootstrap: { resamples: 200 } },
  stages: [
    { id: 'pin', uses: 'pin' },
    { id: 'warmup', uses: 'warmup', needs: ['pin'] },
    { id: 'sample', uses: 'sample', needs: ['warmup', 'pin'] },
    { id: 'analyze', uses: 'analyze', needs: ['sample'] },
    { id: 'report', uses: 'report', needs: ['analyze', 'sample', 'pin'] },
  ],
};

/** The busybox image of the guide, saved as an OCI archive and as a docker-archive. */
function makeImages(dir: string): void {
  const rootfs = join(dir, 'rootfs');
  mkdirSync(join(rootfs, 'bin'), { recursive: true });
  mkdirSync(join(rootfs, 'etc'));
  copyFileSync('/bin/busybox', join(rootfs, 'bin', 'busybox'));
  for (const a of ['sh', 'cat', 'grep']) symlinkSync('busybox', join(rootfs, 'bin', a));
  writeFileSync(join(rootfs, 'etc', 'os-release'), 'ID=busybox\n');
  const run = (cmd: string, args: string[]): void => void execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  run('umoci', ['init', '--layout', 'layout']);
  run('umoci', ['new', '--image', 'layout:v1']);
  run('umoci', ['insert', '--image', 'layout:v1', 'rootfs', '/']);
  run('skopeo', ['--insecure-policy', 'copy', '--quiet', 'oci:layout:v1', 'oci-archive:my-image.tar']);
  run('skopeo', ['--insecure-policy', 'copy', '--quiet', 'oci:layout:v1', 'docker-archive:my-image-docker.tar:mine:v1']);
  rmSync(join(dir, 'layout'), { recursive: true });
  rmSync(rootfs, { recursive: true });
}

/** Every published file's text; index.html without its inlined plotting libraries (their code is not the report's words). */
function publishedTexts(reportDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(reportDir)) {
    const p = join(reportDir, f);
    if (f === 'runs' || !/\.(md|csv|svg|html|json)$/.test(f)) continue;
    let text = readFileSync(p, 'utf8');
    if (f === 'index.html') text = text.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
    out.set(f, text);
  }
  return out;
}

realTest("a user's crun-against-runsc experiment on OCI- and docker-archive images publishes only what it has", async (t) => {
  t.timeout(300_000);
  const dir = tempDir('benchgraph-own-');
  try {
    const init = await runCli(['init', 'exp'], dir);
    t.is(init.code, 0, init.stderr);
    const exp = join(dir, 'exp');
    makeImages(exp);
    writeFileSync(join(exp, 'pipeline.yaml'), JSON.stringify(pipeline, null, 2) + '\n'); // YAML is a superset of JSON
    const run = await runCli(['run'], exp);
    t.is(run.code, 0, run.stderr + run.stdout);
    t.regex(run.stdout + run.stderr, /sample: 24 formal launches, 0 failures/);
    const texts = publishedTexts(join(exp, 'reports', 'my-runtimes'));
    t.true(texts.has('report.md') && texts.has('REPRODUCE.md') && texts.has('index.html'));
    // The host's virtualization is a fact of the machine (this CI host may itself be a container), not of the experiment.
    const virt = /virtualization or container: ([^,]+),/.exec(texts.get('report.md')!)?.[1];
    for (const [file, raw] of texts) {
      const text = virt
        ? raw
            .split(`virtualization or container: ${virt}`)
            .join('virtualization or container: HOST')
            .replace(new RegExp(`virtualization,${virt},`, 'g'), 'virtualization,HOST,')
        : raw;
      for (const word of [
        /docker(?!-archive|\.tar|_archive)/i,
        /mmdebstrap/i,
        /registry/i,
        /\bpull/i,
        /\bclients?\b/i,
        /\b(the|a) source\b|source report|source.s/i,
      ])
        t.notRegex(text.replace(/my-image-docker|shell-docker|as-docker/g, 'X'), word, `${file} names ${word}`);
    }
    const md = texts.get('report.md')!;
    const tools = /Pinned host and tools: ([^\n]*)/.exec(md)?.[1] ?? '';
    t.regex(tools, /crun/);
    t.regex(tools, /runsc/);
    t.notRegex(tools, /dockerd|containerd|runc |rclone|nginx|mmdebstrap/);
    // The first screen (before the first section) says the two images pin to the same content.
    const firstScreen = md.split('\n## ')[0]!;
    t.regex(firstScreen, /`as-(oci|docker)` and `as-(oci|docker)` are byte-identical after pin/);
    const reproduce = texts.get('REPRODUCE.md')!;
    t.regex(reproduce, /runs containers with crun and runsc/);
    t.regex(reproduce, /the image archive `\.\/my-image\.tar`/);
    t.notRegex(reproduce, /digests can differ/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
