// REPRODUCE.md: the exact commands, versions and pins to reproduce the report.
import { fixed } from './format-number.js';
import type { ReportInputs } from './report-inputs.js';

export function renderReproduce(inp: ReportInputs): string {
  const L: string[] = [];
  const file = inp.pipelineFileName;
  L.push(`# Reproducing "${inp.config.experiment.name}"`, '');
  L.push(`Run these in the folder that holds \`${file}\`, with Node 20 and the benchgraph checkout set up by \`./setup.sh\` (as root on Debian it also installs the Debian packages the real paths run; \`pipeline doctor\` lists what is missing).`, '');
  L.push('```', `pipeline run -f ${file}`, `pipeline status -f ${file}`, `pipeline audit -f ${file}`, '```', '');
  L.push('`pipeline run` reuses every stage whose inputs are unchanged; compare `pipeline.lock` with the stage digests below. ' +
    `To re-analyse only, e.g.: \`pipeline run -f ${file} --set analysis.bootstrap.resamples=2000\` (reruns analyze and report).`, '');
  L.push('## Stages and output digests', '');
  for (const s of inp.stages) L.push(`- \`${s.id}\` (${s.kind}): ${s.outputDigest}`);
  if (inp.stages.length === 0) L.push('- (no upstream stage)');
  L.push('');
  if (inp.samplesSha256) L.push(`Raw samples: samples.duckdb sha256 ${inp.samplesSha256}.`, '');
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
      L.push(`- image ${id}: ${i.ref ?? ''}${i.manifestDigest ? ` manifest ${i.manifestDigest}` : ''}${i.tarSha256 ? ` tar sha256 ${i.tarSha256}` : ''}${i.erofsSha256 ? ` erofs sha256 ${i.erofsSha256}` : ''}`);
    }
    L.push('');
  }
  const d = inp.config.design;
  if (d) {
    L.push('## Design', '');
    L.push(`seed \`${d.seed}\`, ${d.rounds} formal rounds, ${d.warmup_rounds} warmup rounds, ${d.preflight} preflight, states ${d.states.join(', ')}, timeout ${d.timeout_s} s.`, '');
  }
  const a = inp.analysis;
  if (a) {
    const r = a.rules;
    L.push('## Analysis rules', '');
    L.push(`metrics ${r.metrics.join(', ')}; quantiles ${a.quantile}; P95 reference-only below n=${r.p95ReferenceBelowN}; ` +
      `clusters: min_gap_ratio ${r.clusters.minGapRatio}, min_group_share ${fixed(r.clusters.minGroupShare, 3)}, max_groups ${r.clusters.maxGroups}; ` +
      `bootstrap: ${r.bootstrap.resamples} resamples, confidence ${r.bootstrap.confidence}, seed \`${r.bootstrap.seed}\`; ` +
      `comparisons: ${r.comparisons.length ? r.comparisons.map((c) => `${c.a} − ${c.b}`).join(', ') : 'every pair of sampled paths'}.`, '');
  }
  return L.join('\n').trimEnd() + '\n';
}
