// REPRODUCE.md: a standalone manual to reproduce the report on another
// machine: what the machine needs, the exact commands, how long and how much
// disk the last run took (from its own records), what counts as reproduced,
// and the versions, pins and digests to compare against.
import { fixed, grouped } from '../publish/format-number.js';
import { measuredBetween } from '../publish/provenance-lines.js';
import type { ReportInputs } from './report-inputs.js';

const mib = (bytes: number): string => `${grouped(bytes / 2 ** 20)} MiB`;

function durationText(seconds: number): string {
  if (seconds < 120) return `${fixed(seconds, 0)} s`;
  if (seconds < 7200) return `${fixed(seconds / 60, 0)} min`;
  return `${fixed(seconds / 3600, 1)} h`;
}

/** Does this pipeline run real container paths (needs root and kernel features)? */
function needsRoot(inp: ReportInputs): boolean {
  return (
    Object.keys(inp.config.services ?? {}).length > 0 ||
    Object.keys(((inp.config.artifacts as Record<string, unknown> | undefined)?.['images'] as object) ?? {}).length > 0
  );
}

export function renderReproduce(inp: ReportInputs): string {
  const L: string[] = [];
  const file = inp.pipelineFileName;
  const name = inp.config.experiment.name;
  const root = needsRoot(inp);
  L.push(`# Reproducing "${name}"`, '');
  L.push(
    `This folder (reports/${name}/) was produced by benchgraph from \`${file}\`. ` +
      'This manual is all you need to run the experiment again and judge whether the result held.',
    '',
  );

  L.push('## What the machine needs', '');
  if (root) {
    L.push(
      '- Debian 12 (bookworm) on x86_64, or a close Debian derivative; `./setup.sh` installs the Debian packages (docker.io, docker-registry, nginx-light, rclone, erofs-utils, fuse3, crun, skopeo, umoci, mmdebstrap and the rest).',
    );
    L.push('- root: the run mounts file systems, starts a private Docker engine and runs containers with crun.');
    L.push(
      '- Kernel features: erofs (`grep erofs /proc/filesystems`, or `modprobe erofs`), overlay (`modprobe overlay`), FUSE (`/dev/fuse`, `modprobe fuse`) and loop devices (`/dev/loop-control`, `modprobe loop`) for mounting erofs image files.',
    );
    L.push(
      '- Network: only to the Debian mirror while `./setup.sh` installs packages and while the pin stage builds images with mmdebstrap; every service of the experiment listens on 127.0.0.1 and containers run with `--network none`.',
    );
  } else {
    L.push('- Linux with Node 20 and /bin/sh; no root, no container runtime.');
  }
  L.push('- Node 20 (`node --version`).', '');

  L.push('## Commands', '');
  L.push(`In a checkout of benchgraph at the commit below${root ? ', as root' : ''}:`, '');
  L.push('```', './setup.sh', `./bin/pipeline.js run -f ${file}`, '```', '');
  L.push(
    `\`./setup.sh\` installs what is missing (as root on Debian), runs \`npm ci\` and builds. \`./bin/pipeline.js run\` runs every stage and publishes the new report to \`reports/${name}/\` beside \`${file}\`; ` +
      `\`./bin/pipeline.js status -f ${file}\` says which stages are fresh, \`./bin/pipeline.js audit -f ${file}\` re-hashes every frozen output. ` +
      `To re-analyse the published samples without measuring, import \`samples.csv\` with an \`import-samples\` stage (\`uses: import-samples\`, \`with: { file: samples.csv }\`) in place of the sampling stages.`,
    '',
  );

  L.push('## How long and how much disk', '');
  // Only what the frozen samples say: a stage's own run time (its manifest) is not a product, and a report
  // that quoted it would differ between two runs of the same key (a pulled run re-analysed elsewhere).
  const m = measuredBetween(inp.launches);
  const t: string[] = [];
  if (m) t.push(`the formal launches spanned ${durationText((Date.parse(m.last) - Date.parse(m.first)) / 1000)}`);
  L.push(t.length ? `On the host described in report.md, ${t.join('; ')}.` : 'The inputs of this report record no stage durations.', '');
  const images = Object.entries(inp.pins?.images ?? {});
  const imageBytes = images.reduce((s, [, i]) => s + (i.tarBytes ?? 0) + (i.erofsBytes ?? 0), 0);
  if (imageBytes > 0) {
    L.push(
      `The pinned images alone take ${mib(imageBytes)} (${images.map(([id, i]) => `${id}: tar ${i.tarBytes ? mib(i.tarBytes) : '-'}, erofs ${i.erofsBytes ? mib(i.erofsBytes) : '-'}`).join('; ')}); ` +
        "the registry storage, the cache folder, the Docker data root and each pair's unpacked root hold further copies while the run lasts, and node_modules takes about 200 MiB. These copies were not measured.",
      '',
    );
  } else {
    L.push('No image is pinned by this pipeline; the data folder holds the frozen stage outputs and samples.duckdb.', '');
  }

  L.push('## What counts as reproduced', '');
  L.push(
    `Compare your new \`reports/${name}/\` with this published folder using \`./bin/pipeline.js compare\` (it says which conclusions held, changed, were lost or gained; once sampling sessions are in, it judges each direction by how many sessions it held in). ` +
      'Until that command is in your checkout, the result is reproduced when every difference that is detected here (differences.csv, `detected` true) is detected with the same sign in your run, every one not detected here is not detected in yours, ' +
      'and the agrees/differs column of "Against the source report" in report.md is the same. Absolute times depend on the host: compare directions, not milliseconds.',
    '',
  );

  L.push('## Stages and output digests', '');
  for (const s of inp.stages) L.push(`- \`${s.id}\` (${s.kind}): ${s.outputDigest}`);
  if (inp.stages.length === 0) L.push('- (no upstream stage)');
  L.push('');
  if (inp.samplesSha256) L.push(`Raw samples: samples.duckdb sha256 ${inp.samplesSha256} (its rows are samples.csv).`, '');
  const c = inp.provenance.commit;
  L.push(
    c
      ? `benchgraph commit: ${c.sha}${c.dirty ? ' (with uncommitted changes: the exact code is not recoverable from the commit alone)' : ''}.`
      : 'benchgraph commit: not recorded.',
    '',
  );

  L.push('## Versions and pins', '');
  const pins = inp.pins;
  if (!pins) {
    L.push('No pin stage ran: artifacts, tools and host versions are not pinned by this pipeline.', '');
  } else {
    if (pins.kernel) L.push(`- kernel: ${pins.kernel}`);
    if (pins.node) L.push(`- node: ${pins.node}`);
    for (const b of pins.binaries ?? []) L.push(`- ${b.name} ${b.version ?? '(version unknown)'}: sha256 ${b.sha256 ?? '-'}${b.path ? ` (${b.path})` : ''}`);
    for (const id of Object.keys(pins.images ?? {}).sort()) {
      const i = pins.images![id]!;
      L.push(
        `- image ${id}: ${i.ref ?? ''}${i.manifestDigest ? ` manifest ${i.manifestDigest}` : ''}${i.tarSha256 ? ` tar sha256 ${i.tarSha256}` : ''}${i.erofsSha256 ? ` erofs sha256 ${i.erofsSha256}` : ''}`,
      );
    }
    const ps = inp.provenance.packageSet;
    if (ps)
      L.push(
        `- Debian package set: mirror ${ps.mirror}${ps.builtAt ? `, as of ${ps.builtAt.slice(0, 16).replace('T', ' ')} UTC` : ''}; a later build fetches that day's packages, so image digests can differ while the experiment stays the same.`,
      );
    L.push('');
  }
  const d = inp.config.design;
  if (d) {
    L.push('## Design', '');
    L.push(
      `seed \`${d.seed}\`, ${d.rounds} formal rounds, ${d.warmup_rounds} warmup rounds, ${d.preflight} preflight rounds, states ${d.states.join(', ')}, timeout ${d.timeout_s} s.`,
      '',
    );
  }
  const a = inp.analysis;
  if (a) {
    const r = a.rules;
    L.push('## Analysis rules', '');
    L.push(
      `metrics ${r.metrics.join(', ')}; quantiles ${a.quantile}; P95 reference-only below n=${r.p95ReferenceBelowN}; ` +
        `clusters: min_gap_ratio ${r.clusters.minGapRatio}, min_group_share ${fixed(r.clusters.minGroupShare, 3)}, min_group_n ${r.clusters.minGroupN ?? 2}, max_groups ${r.clusters.maxGroups}; ` +
        `bootstrap: ${r.bootstrap.resamples} resamples, confidence ${r.bootstrap.confidence}, seed \`${r.bootstrap.seed}\`; ` +
        (r.carryover ? `carryover: min_ratio ${r.carryover.minRatio}, min_group_n ${r.carryover.minGroupN}; ` : '') +
        `comparisons: ${r.comparisons.length ? r.comparisons.map((c) => `${c.a} − ${c.b}`).join(', ') : 'every pair of sampled paths'}.`,
      '',
    );
  }
  return L.join('\n').trimEnd() + '\n';
}
