// The restore sweep's REPRODUCE.md names only what the sweep uses: its own
// pipeline file (pipelines/restore-sweep.yaml, loaded as the CLI loads it),
// the requirements its sample stage records (made up here as met: this test
// renders from a made-up context and is about our own wording, not a run),
// and the tools its config and requirements name. No Docker engine, no crun,
// no mmdebstrap, no registry, no rclone.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import type { Requirement } from '../harness/contract/requirement.js';
import { projectRoot } from '../harness/process/project-root.js';
import { usedParts } from '../harness/publish/used-tools.js';
import { renderReproduce } from '../harness/report/render-reproduce.js';
import { reportOptions } from '../harness/config/report-options.js';
import type { ReportInputs } from '../harness/report/report-inputs.js';

const root = projectRoot();
const kinds = new Set(readdirSync(join(root, 'stages')).flatMap((f) => (f.endsWith('.ts') ? [f.replace(/\.ts$/, '')] : [])));

function madeUpInputs(requirements: Requirement[]): ReportInputs {
  const config = loadPipeline(join(root, 'pipelines', 'restore-sweep.yaml'), { knownKinds: kinds });
  const used = usedParts(config, requirements, join(root, 'harness'));
  return {
    config,
    options: reportOptions(config.report),
    pipelineFileName: 'pipelines/restore-sweep.yaml',
    analysis: null,
    session: null,
    pins: {
      kernel: '6.1.0-made-up',
      node: 'v20.0.0',
      binaries: ['dockerd', 'containerd', 'runc', 'docker-registry', 'rclone', 'crun', 'nginx', 'mmdebstrap', 'runsc', 'busybox', 'mkfs.erofs'].map((name) => ({
        name,
        version: `${name} 1.0`,
        sha256: 'a'.repeat(64),
        path: `/usr/bin/${name}`,
      })),
      images: { busybox: { kind: 'busybox-static', tarSha256: 'b'.repeat(64), tarBytes: 2 ** 20, erofsSha256: 'c'.repeat(64), erofsBytes: 2 ** 20 } },
    },
    verify: null,
    stages: [{ id: 'sample', kind: 'restore-sweep-sample', outputDigest: 'd'.repeat(64) }],
    samplesSha256: null,
    launches: [],
    provenance: { host: null, commit: null, packageSet: null },
    sessions: null,
    preflight: null,
    tools: used.tools,
    kernelFeatures: used.kernel,
    requirements,
  };
}

const sweepNeeds: Requirement[] = [
  { id: 'root', part: 'running as root', met: true, detail: 'uid 0' },
  { id: 'runsc', part: 'runsc on PATH', met: true, detail: '/usr/bin/runsc' },
  { id: 'drop-caches', part: 'writable /proc/sys/vm/drop_caches', met: true, detail: 'writable' },
];

test('made-up context: the restore sweep REPRODUCE.md names runsc, root and drop_caches, and no Docker engine, crun, mmdebstrap, registry or rclone', (t) => {
  const md = renderReproduce(madeUpInputs(sweepNeeds));
  const needs = md.split('## What the machine needs\n')[1]!.split('\n## ')[0]!;
  t.regex(needs, /runsc on PATH/);
  t.regex(needs, /drop_caches/);
  t.regex(needs, /root/);
  for (const word of [/docker/i, /\bcrun\b/, /mmdebstrap/i, /registry/i, /rclone/i, /nginx/i, /\bpull/i, /client/i, /source report/i]) t.notRegex(md, word);
  // The pinned-tools list keeps only what the sweep used: runsc, and busybox and mkfs.erofs for its image.
  const pins = md.split('## Versions and pins\n')[1]!.split('\n## ')[0]!;
  t.regex(pins, /- runsc runsc 1\.0/);
  t.regex(pins, /- busybox busybox 1\.0/);
  t.notRegex(pins, /dockerd|containerd|runc 1|rclone|nginx|mmdebstrap/);
});

test('made-up context: a requirement the sweep did not declare is not listed, and one it declares is', (t) => {
  const without = renderReproduce(madeUpInputs(sweepNeeds.filter((r) => r.id !== 'drop-caches')));
  t.notRegex(without, /drop_caches/);
  t.regex(renderReproduce(madeUpInputs(sweepNeeds)), /drop_caches/);
});

test('made-up context: a pipeline in a folder of its own gets the commands that rerun it there, not the default experiment in the checkout (#47 item 6)', (t) => {
  const inside = renderReproduce(madeUpInputs(sweepNeeds));
  const commandsOf = (md: string): string => md.split('## Commands\n')[1]!.split('\n## ')[0]!;
  t.regex(commandsOf(inside), /In a checkout of benchgraph at the commit below, as root:/);
  t.regex(commandsOf(inside), /^\.\/bin\/pipeline\.js run -f pipelines\/restore-sweep\.yaml$/m);
  const own = commandsOf(renderReproduce({ ...madeUpInputs(sweepNeeds), pipelineFileName: 'pipeline.yaml', outsideCheckout: true }));
  t.regex(own, /in the folder that holds `pipeline\.yaml`/);
  t.regex(own, /^\(cd "\$BENCHGRAPH" && \.\/setup\.sh\)$/m);
  t.regex(own, /^"\$BENCHGRAPH\/bin\/pipeline\.js" run -f pipeline\.yaml$/m);
  t.notRegex(own, /In a checkout of benchgraph/);
  t.notRegex(own, /`\.\/bin\/pipeline\.js /);
  t.notRegex(own, /`\.\/setup\.sh`/);
});
