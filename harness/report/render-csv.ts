// The report's CSV files (columns described in schemas/report-*.schema.json).
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { csv, fixed } from '../publish/format-number.js';
import { factorColumns, launchDifferencesColumns, ms3, recordColumns, writeDifferencesCsv, type DifferenceRow } from '../publish/comparison-csv.js';
import type { ReportInputs } from './report-inputs.js';
import { measuredBetween } from '../publish/provenance-lines.js';
import { differenceOrderEffect } from './order-effect-notes.js';
import { differenceVerdict } from './difference-verdict-text.js';

const ms = (v: number | null): string | null => (v === null ? null : fixed(v, 3));
const share = (v: number): string => fixed(v, 4);
const ratio = (v: number | null | undefined): string | null => (v === null || v === undefined ? null : fixed(v, 4));

export const statisticsColumns = [
  'cohort',
  'path',
  'state',
  'metric',
  'unit',
  'launches',
  'failures',
  'n',
  'p50',
  'p95',
  'p95_reference_only',
  'min',
  'max',
  'split',
  'clusters',
  'identical',
  'quantile',
  'position_effect',
  'position_low',
  'position_high',
  'predecessor_effect',
  'predecessor_low',
  'predecessor_high',
  'order_effect',
  'carryover',
] as const;

export function statisticsCsv(a: AnalysisResult): string {
  const rows: (string | number | boolean | null)[][] = [];
  for (const c of a.cells) {
    const clusters = c.split ? c.groups.map((g) => `${fixed(g.medianMs, 3)}@${share(g.share)}`).join(';') : null;
    rows.push([
      c.cohort,
      c.path,
      c.state,
      c.metric,
      'ms',
      c.launches,
      c.failures,
      c.n,
      ms(c.p50Ms),
      ms(c.p95Ms),
      c.p95ReferenceOnly,
      ms(c.minMs),
      ms(c.maxMs),
      c.split,
      clusters,
      null,
      'type7',
      ratio(c.position?.ratio),
      ratio(c.position?.low),
      ratio(c.position?.high),
      ratio(c.predecessor?.ratio),
      ratio(c.predecessor?.low),
      ratio(c.predecessor?.high),
      c.orderEffect === true,
      c.carryover ?? null,
    ]);
  }
  for (const b of a.bytes) {
    const cell = a.cells.find((c) => c.cohort === b.cohort && c.path === b.path && c.state === b.state);
    for (const [metric, s] of [
      ['content_bytes', b.contentBytes],
      ['response_bytes', b.responseBytes],
    ] as const) {
      rows.push([
        b.cohort,
        b.path,
        b.state,
        metric,
        'bytes',
        cell?.launches ?? null,
        cell?.failures ?? null,
        s.n,
        s.median,
        null,
        null,
        s.min,
        s.max,
        null,
        null,
        s.n > 0 ? s.identical : null,
        'type7',
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    }
  }
  return csv(statisticsColumns, rows);
}

/** A Ready difference's host classes (analysis/cross-class.ts): how many were measured, on how many it held, and where its ratio a / b should land on another class. */
function crossClassColumns(a: AnalysisResult, d: DifferenceResult): DifferenceRow {
  const c = a.crossClass?.differences.find((x) => x.cohort === d.cohort && x.state === d.state && x.a === d.a && x.b === d.b);
  if (!c || d.metric !== 'ready' || d.factor) return {};
  const r = (v: number | null): string | null => (v === null ? null : fixed(v, 4));
  return { classes: c.classes, classes_held: c.holds, cross_class_ratio_low: r(c.low), cross_class_ratio_high: r(c.high) };
}

/** The default experiment's differences.csv: every record (the comparisons of paths, then those along another factor), then the preparation costs (seconds). */
export function differencesCsv(a: AnalysisResult): string {
  const rows: DifferenceRow[] = a.differences.map((d) => ({
    ...recordColumns(d, differenceVerdict(a, d).verdict),
    order_effect: differenceOrderEffect(a, d).length > 0,
    rerun_low: ms3(d.rerun?.lowMs ?? null),
    rerun_high: ms3(d.rerun?.highMs ?? null),
    cross_host_low: ms3(d.replicates?.crossHost?.lowMs ?? null),
    cross_host_high: ms3(d.replicates?.crossHost?.highMs ?? null),
    ...crossClassColumns(a, d),
  }));
  for (const d of a.factorDifferences ?? []) rows.push(recordColumns(d, d.verdict.verdict));
  for (const p of a.preparation ?? []) {
    rows.push({ kind: 'preparation', service: p.service, artifact: p.artifact, operation: p.operation, unit: 's', value: fixed(p.seconds, 3), n: 1 });
  }
  // the factor and path columns only where a comparison along the unit or the condition was made: other reports keep their columns
  return writeDifferencesCsv(rows, a.factorDifferences?.length ? [...launchDifferencesColumns, ...factorColumns] : launchDifferencesColumns);
}

export const provenanceColumns = ['kind', 'name', 'version', 'sha256', 'detail'] as const;

export function provenanceCsv(inp: ReportInputs): string {
  const rows: (string | number | boolean | null)[][] = [];
  const pins = inp.pins;
  if (pins) {
    for (const id of Object.keys(pins.images ?? {}).sort()) {
      const img = pins.images![id]!;
      rows.push(['image', id, img.ref ?? null, img.tarSha256 ?? null, `tar=${img.tarFile ?? ''};bytes=${img.tarBytes ?? ''}`]);
      if (img.manifestDigest)
        rows.push(['image-manifest', id, img.ref ?? null, img.manifestDigest.replace(/^sha256:/, ''), `config=${img.configDigest ?? ''}`]);
      if (img.erofsSha256) rows.push(['image-erofs', id, null, img.erofsSha256, `file=${img.erofsFile ?? ''};bytes=${img.erofsBytes ?? ''}`]);
      const src = img.source;
      if (src)
        rows.push([
          'image-source',
          id,
          src.kind,
          src.sourceDigest.replace(/^sha256:/, ''),
          `platform=${src.platform};platform_manifest=${src.platformManifestDigest}${src.indexDigest ? `;index=${src.indexDigest}` : ''}${src.pinnedDigest ? `;pinned=${src.pinnedDigest}` : ''}`,
        ]);
      for (const l of src ? (img.layers ?? []) : [])
        rows.push(['image-layer', id, l.mediaType ?? null, l.digest.replace(/^sha256:/, ''), `bytes=${l.size};diff_id=${l.diffId}`]);
    }
    // Only the tools this experiment used (publish/used-tools.ts), when known.
    const used = (b: { name: string }): boolean => !inp.tools || inp.tools.includes(b.name);
    for (const b of [...(pins.binaries ?? [])].filter(used).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      rows.push(['binary', b.name, b.version ?? null, b.sha256 ?? null, b.path ?? null]);
    }
    if (pins.kernel) rows.push(['host', 'kernel', pins.kernel, null, null]);
    if (pins.node) rows.push(['host', 'node', pins.node, null, null]);
  }
  const h = inp.provenance.host;
  if (h) {
    for (const [name, v] of [
      ['cpu_model', h.cpuModel],
      ['vcpus', h.vcpus],
      ['memory_bytes', h.memoryBytes],
      ['virtualization', h.virtualization],
      ['data_filesystem', h.storageDriver],
      ['cgroup', h.cgroupVersion],
      ['sample_kernel', h.kernel],
    ] as const) {
      if (v !== null) rows.push(['host', name, String(v), null, h.source]);
    }
  }
  const c = inp.provenance.commit;
  if (c) rows.push(['benchgraph', 'commit', c.sha, null, c.dirty ? 'dirty: tracked files differ from the commit' : 'clean']);
  const m = measuredBetween(inp.launches);
  if (m) rows.push(['measured', 'formal launches', `${m.first}..${m.last}`, null, 'first and last started_at of the formal launches']);
  const ps = inp.provenance.packageSet;
  if (ps) rows.push(['package-set', 'debian', ps.mirror, null, ps.builtAt ? `images built from it at ${ps.builtAt}` : 'build date not recorded']);
  if (inp.launches.length)
    rows.push(['samples', 'samples.csv', null, null, `${inp.launches.length} launches, every phase in the sample table, sample schema columns`]);
  for (const s of inp.stages) rows.push(['stage', s.id, s.kind, s.outputDigest.replace(/^sha256:/, ''), 'output digest']);
  if (inp.samplesSha256) rows.push(['samples', 'samples.duckdb', null, inp.samplesSha256, 'raw sample table file']);
  if (inp.verify) rows.push(['verify', 'artifacts', null, null, inp.verify.ok ? 'hashes match after sampling' : 'hash mismatch after sampling']);
  return csv(provenanceColumns, rows);
}

/** sessions.csv: the median of every cell in every session (one row per cell, metric and session). */
export const sessionsColumns = ['cohort', 'path', 'state', 'metric', 'session', 'n', 'p50_ms', 'cell_session_spread', 'dominant_variance'] as const;

export function sessionsCsv(a: AnalysisResult): string {
  const rows: (string | number | boolean | null)[][] = [];
  for (const c of a.cells) {
    for (const s of c.sessions)
      rows.push([
        c.cohort,
        c.path,
        c.state,
        c.metric,
        s.session,
        s.n,
        ms(s.p50Ms),
        c.sessionSpread === null ? null : fixed(c.sessionSpread, 3),
        c.variance.dominant,
      ]);
  }
  return csv(sessionsColumns, rows);
}

// phases.csv (schemas/report-phases.schema.json): one row per valid formal
// launch and phase mark, then the launch's Ready as the last mark, with the
// span that ends at each (the rows analysis/phase-spans.ts computes from).
export const phasesColumns = ['launch_id', 'cohort', 'path', 'state', 'session', 'round', 'mark_order', 'mark', 'at_ms', 'span', 'span_ms'] as const;

/** Null when no launch printed a phase mark, or the analysis has no launch spans (written before benchgraph-analysis/5). */
export function phasesCsv(a: AnalysisResult): string | null {
  if (!a.launchSpans?.some((l) => l.spans.length > 1)) return null;
  const rows: (string | number | boolean | null)[][] = [];
  for (const l of a.launchSpans) {
    for (const s of l.spans) {
      rows.push([l.launchId, l.cohort, l.path, l.state, l.session, l.round, s.seq, s.mark ?? 'ready', ms(s.atMs ?? l.readyMs), s.name, ms(s.spanMs)]);
    }
  }
  return csv(phasesColumns, rows);
}
