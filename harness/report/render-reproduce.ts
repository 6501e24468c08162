// REPRODUCE.md of an experiment on the default report stage (the default
// experiment, the restore sweep, a user's own), through the kit's document
// (publish/reproduce-document.ts): what the machine needs comes from what the
// experiment declares and used (its images' kinds, the tools its paths and
// services run, its sample stage's requirements.json), never from another
// experiment's list. Pure.
import type { Block, ReportDocument, Section } from '../document/document-model.js';
import { paragraph, section } from '../document/document-model.js';
import { renderMarkdown } from '../document/render-markdown.js';
import { BINARIES } from '../artifacts/binary-pins.js';
import { fixed, grouped } from '../publish/format-number.js';
import { measuredBetween } from '../publish/provenance-lines.js';
import { commandNames, needLine, reproduceDocument } from '../publish/reproduce-document.js';
import type { ReportInputs } from './report-inputs.js';
import { crossClassFactor } from '../analysis/cross-class.js';

const mib = (bytes: number): string => `${grouped(bytes / 2 ** 20)} MiB`;

function durationText(seconds: number): string {
  if (seconds < 120) return `${fixed(seconds, 0)} s`;
  if (seconds < 7200) return `${fixed(seconds / 60, 0)} min`;
  return `${fixed(seconds / 3600, 1)} h`;
}

type ImageSection = { kind?: string; file?: string; path?: string; reference?: string; digest?: string };
const imagesOf = (inp: ReportInputs): [string, ImageSection][] =>
  Object.entries(((inp.config.artifacts as Record<string, unknown> | undefined)?.['images'] ?? {}) as Record<string, ImageSection>);

const BROUGHT = new Set(['oci-archive', 'docker-archive', 'oci-layout', 'registry']);
const CONTAINER_TOOLS = ['crun', 'runsc', 'runc', 'dockerd'];
const FEATURE_TEXT: Record<string, string> = {
  erofs: 'erofs (`grep erofs /proc/filesystems`, or `modprobe erofs`)',
  overlay: 'overlay (`modprobe overlay`)',
  fuse: 'FUSE (`/dev/fuse`, `modprobe fuse`)',
  loop: 'loop devices (`/dev/loop-control`, `modprobe loop`) for mounting erofs image files',
};

/** What the machine needs, from the experiment's images, used tools, kernel features, services and declared requirements. */
export function machineNeeds(inp: ReportInputs): { needs: string[]; root: boolean } {
  const tools = inp.tools ?? [];
  const kernel = inp.kernelFeatures ?? [];
  const images = imagesOf(inp);
  const services = Object.keys(inp.config.services ?? {});
  const declared = inp.requirements ?? [];
  const containers = CONTAINER_TOOLS.filter((t) => tools.includes(t));
  const root = images.length > 0 || services.length > 0 || containers.length > 0 || kernel.length > 0 || declared.some((r) => r.id === 'root');
  if (!root) return { needs: ['Linux with Node 20 and /bin/sh; no root, no container runtime.'], root };
  const needs: string[] = [];
  const packages = [...new Set(BINARIES.filter((b) => tools.includes(b.name)).map((b) => b.debianPackage))];
  needs.push(
    `Debian 12 (bookworm) on x86_64, or a close Debian derivative; \`./setup.sh\` installs the Debian packages${packages.length ? ` of the tools this run used (${packages.join(', ')})` : ''}.`,
  );
  const does = [
    kernel.length ? 'mounts file systems' : null,
    tools.includes('dockerd') ? 'starts a private Docker engine' : null,
    containers.filter((t) => t !== 'dockerd').length ? `runs containers with ${containers.filter((t) => t !== 'dockerd').join(' and ')}` : null,
  ].filter((x): x is string => x !== null);
  if (!declared.some((r) => r.id === 'root')) needs.push(`root: the run ${does.length ? does.join(', ') : 'pins and prepares its images'}.`);
  for (const r of declared) needs.push(r.id === 'root' && does.length ? `root: the run ${does.join(', ')}.` : `${needLine(r)}.`);
  if (kernel.length) needs.push(`Kernel features: ${kernel.map((k) => FEATURE_TEXT[k] ?? k).join(', ')}.`);
  for (const [id, i] of images) {
    if (!BROUGHT.has(i.kind ?? '')) continue;
    const what =
      i.kind === 'registry'
        ? `the image \`${i.reference ?? id}\` in its registry`
        : `the image ${i.kind === 'oci-layout' ? 'layout' : 'archive'} \`${i.file ?? i.path ?? id}\` beside \`${inp.pipelineFileName}\``;
    const pin = inp.pins?.images?.[id];
    needs.push(
      `Image ${id}: ${what} (${i.kind}${pin?.manifestDigest ? `, manifest ${pin.manifestDigest}` : ''}); it is not in this folder. ${i.digest ? 'The pin stage refuses an image with another digest than the pipeline file names.' : 'Compare its manifest digest with the one under "Versions and pins" (or add `digest:` to the pipeline file, and the pin stage refuses any other image).'}`,
    );
  }
  const net: string[] = ['while `./setup.sh` installs packages'];
  if (images.some(([, i]) => i.kind === 'mmdebstrap')) net.push('while the pin stage builds images with mmdebstrap from the Debian mirror');
  if (images.some(([, i]) => i.kind === 'registry')) net.push('while the pin stage copies each image from its registry');
  needs.push(
    `Network: only ${net.join(' and ')}${services.length ? '; every service of the experiment listens on 127.0.0.1' : ''}${containers.length ? '; the containers have no network but loopback' : ''}.`,
  );
  return { needs, root };
}

/** The pinned tools this run used, its images and the package set (only for images built from it). */
function versionLines(inp: ReportInputs): string[] | null {
  const pins = inp.pins;
  if (!pins) return null;
  const L: string[] = [];
  if (pins.kernel) L.push(`kernel: ${pins.kernel}`);
  if (pins.node) L.push(`node: ${pins.node}`);
  const used = inp.tools;
  for (const b of pins.binaries ?? []) {
    if (used && !used.includes(b.name)) continue;
    L.push(`${b.name} ${b.version ?? '(version unknown)'}: sha256 ${b.sha256 ?? '-'}${b.path ? ` (${b.path})` : ''}`);
  }
  for (const id of Object.keys(pins.images ?? {}).sort()) {
    const i = pins.images![id]!;
    L.push(
      `image ${id}: ${i.ref ?? ''}${i.manifestDigest ? ` manifest ${i.manifestDigest}` : ''}${i.tarSha256 ? ` tar sha256 ${i.tarSha256}` : ''}${i.erofsSha256 ? ` erofs sha256 ${i.erofsSha256}` : ''}`,
    );
  }
  const ps = inp.provenance.packageSet;
  if (ps)
    L.push(
      `Debian package set: mirror ${ps.mirror}${ps.builtAt ? `, as of ${ps.builtAt.slice(0, 16).replace('T', ' ')} UTC` : ''}; a later build fetches that day's packages, so the digests of the images built by mmdebstrap can differ while the experiment stays the same.`,
    );
  return L;
}

function howLong(inp: ReportInputs): Block[] {
  // Only what the frozen samples say: a stage's own run time (its manifest) is not a product, and a report
  // that quoted it would differ between two runs of the same key (a pulled run re-analysed elsewhere).
  const out: Block[] = [];
  const m = measuredBetween(inp.launches);
  if (m)
    out.push(paragraph(`On the host described in report.md, the formal launches spanned ${durationText((Date.parse(m.last) - Date.parse(m.first)) / 1000)}.`));
  const images = Object.entries(inp.pins?.images ?? {});
  const imageBytes = images.reduce((s, [, i]) => s + (i.tarBytes ?? 0) + (i.erofsBytes ?? 0), 0);
  if (imageBytes > 0) {
    const tools = inp.tools ?? [];
    const copies = [
      tools.includes('docker-registry') ? 'the registry storage' : null,
      tools.includes('nginx') || tools.includes('rclone') ? 'the cache folder' : null,
      tools.includes('dockerd') ? 'the Docker data root' : null,
      "each pair's unpacked root",
    ].filter(Boolean);
    out.push(
      paragraph(
        `The pinned images alone take ${mib(imageBytes)} (${images.map(([id, i]) => `${id}: tar ${i.tarBytes ? mib(i.tarBytes) : '-'}, erofs ${i.erofsBytes ? mib(i.erofsBytes) : '-'}`).join('; ')}); ` +
          `${copies.join(', ')} hold${copies.length === 1 ? 's' : ''} further copies while the run lasts, and node_modules takes about 200 MiB. These copies were not measured.`,
      ),
    );
  } else {
    out.push(paragraph('No image is pinned by this pipeline; the data folder holds the frozen stage outputs and samples.duckdb.'));
  }
  return out;
}

function moreSections(inp: ReportInputs): Section[] {
  const d = inp.config.design;
  const a = inp.analysis;
  return [
    ...(d
      ? section('Design', [
          paragraph(
            `seed \`${d.seed}\`, ${d.rounds} formal rounds, ${d.warmup_rounds} warmup rounds, ${d.preflight} preflight rounds, states ${d.states.join(', ')}, timeout ${d.timeout_s} s.`,
          ),
        ])
      : []),
    ...(a
      ? section('Analysis rules', [
          paragraph(
            `metrics ${a.rules.metrics.join(', ')}; quantiles ${a.quantile}; P95 reference-only below n=${a.rules.p95ReferenceBelowN}; ` +
              `clusters: min_gap_ratio ${a.rules.clusters.minGapRatio}, min_group_share ${fixed(a.rules.clusters.minGroupShare, 3)}, min_group_n ${a.rules.clusters.minGroupN ?? 2}, max_groups ${a.rules.clusters.maxGroups}; ` +
              `bootstrap: ${a.rules.bootstrap.resamples} resamples, confidence ${a.rules.bootstrap.confidence}, seed \`${a.rules.bootstrap.seed}\`; ` +
              (a.rules.carryover ? `carryover: min_ratio ${a.rules.carryover.minRatio}, min_group_n ${a.rules.carryover.minGroupN}; ` : '') +
              `comparisons: ${a.rules.comparisons.length ? a.rules.comparisons.map((c) => `${c.a} − ${c.b}${c.factor ? ` (${c.factor}s)` : ''}`).join(', ') : 'every pair of sampled paths'}.`,
          ),
        ])
      : []),
  ];
}

export function reproduceDocumentOf(inp: ReportInputs): ReportDocument {
  const file = inp.pipelineFileName;
  const { inText: cli, setup } = commandNames(inp.outsideCheckout === true);
  const name = inp.config.experiment.name;
  const { needs, root } = machineNeeds(inp);
  const source = !!inp.config.experiment.reference;
  return reproduceDocument({
    name,
    pipelineFileName: file,
    outsideCheckout: inp.outsideCheckout === true,
    needs,
    root,
    commandNotes: [
      `\`${setup}\` installs what is missing (as root on Debian), runs \`npm ci\` and builds. \`${cli} run\` runs every stage and publishes the new report to \`reports/${name}/\` beside \`${file}\`; ` +
        `\`${cli} status -f ${file}\` says which stages are fresh, \`${cli} audit -f ${file}\` re-hashes every frozen output. ` +
        `To re-analyse the published samples without measuring, import \`samples.csv\` with an \`import-samples\` stage (\`uses: import-samples\`, \`with: { file: samples.csv }\`) in place of the sampling stages.`,
    ],
    howLong: howLong(inp),
    reproduced:
      `Copy this folder before your run replaces it (\`cp -r reports/${name} /tmp/${name}-published\`), then \`${cli} compare /tmp/${name}-published reports/${name}\` says, conclusion by conclusion, which held, changed, were lost or gained, judging each direction by how many sessions it held in` +
      (source ? '; the agrees/differs column of "Against the source" in report.md should be the same too' : '') +
      ". Absolute times depend on the host: compare directions, and read where a rerun on this host class should land in the same-class rerun intervals of report.md. On another host class (its canary outside this run's run-to-run spread; pipeline compare says so first) the cells move beyond those intervals, and not all by one factor: compare the ratios a / b, not the cells (pipeline compare judges them so)" +
      crossClassExpectation(inp) +
      '.',
    stages: inp.stages,
    samplesSha256: inp.samplesSha256,
    commit: inp.provenance.commit,
    versions: versionLines(inp),
    more: moreSections(inp),
  });
}

/** "; on another class, expect each Ready ratio within ×0.56–×1.78 of this run's (differences.csv cross_class_ratio_low, _high), …" from the analysis's host classes; '' without a between-class spread. */
function crossClassExpectation(inp: ReportInputs): string {
  const b = inp.analysis?.crossClass?.between;
  if (!b) return '';
  const f = crossClassFactor(b);
  return `; there, expect each Ready ratio a / b within ×${fixed(1 / f, 2)}–×${fixed(f, 2)} of this run's (differences.csv: cross_class_ratio_low, cross_class_ratio_high), the spread of ${b.df} Ready ratios between same-key runs on two host classes`;
}

/** REPRODUCE.md as Markdown. */
export const renderReproduce = (inp: ReportInputs): string => renderMarkdown(reproduceDocumentOf(inp));
