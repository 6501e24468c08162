// The launch report's appendix tables (pure): every difference, every cell,
// dominance, content, paths, pins, preparation and failures.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { comparisonRounds, countText, failedText, outcomeWords } from './conclusions.js';
import { fixed, grouped, orDash } from '../publish/format-number.js';
import type { ReportInputs } from './report-inputs.js';
import { distinctContentText } from './content-detail.js';
import { differenceSides, side } from './split-flag.js';
import { differenceOrderEffect } from './order-effect-notes.js';
import { noDirectionText } from './difference-verdict-text.js';
import { msIntervalText, seedDigitsLegend } from './interval-text.js';
import { list, paragraph, table, type Block } from '../document/document-model.js';
import { code, takeFigure, type Ctx } from './launch-report-context.js';

export function classesCell(a: AnalysisResult, d: DifferenceResult): string {
  const x = a.crossClass?.differences.find(
    (y) => d.metric === 'ready' && !d.factor && y.cohort === d.cohort && y.state === d.state && y.a === d.a && y.b === d.b,
  );
  return x && x.classes >= 2 ? `${x.holds} of ${x.classes}` : '-';
}

export function differencesTables(c: Ctx): Block[] {
  const conf = fixed((c.a.differences[0]?.confidence ?? 0.95) * 100, 0);
  const withClasses = c.a.crossClass?.differences.some((x) => x.classes >= 2) ?? false;
  const ms = (v: number | null): string => orDash(v, c.ms);
  const seedLegend = seedDigitsLegend(
    c.a.differences.map((d) => d.seedSpreadMs),
    c.inp.options.msDecimals,
  );
  // the interval and rerun columns: their endpoints to the digits the seed supports
  const seedNote = seedLegend
    ? ` Interval columns: ${seedLegend} (the same-class rerun interval widens the ${conf}% one, so its endpoints move as that one's do).`
    : '';
  const rows = c.a.differences.map((d) => [
    d.cohort,
    d.state,
    d.metric,
    differenceSides(c.a, d.cohort, d.state, d.metric, d.a, d.b),
    ms(d.observedMs),
    d.lowMs === null || d.highMs === null ? '-' : msIntervalText(d.lowMs, d.highMs, d.seedSpreadMs, c.inp.options.msDecimals),
    d.sessionLowMs === null || d.sessionHighMs === null ? '-' : `[${c.ms(d.sessionLowMs)}, ${c.ms(d.sessionHighMs)}]`,
    `${d.rounds} of ${comparisonRounds(c.a, d)}`,
    d.sessions > 1 ? `${d.sameDirection} of ${d.sessions}` : '1',
    d.rerun ? msIntervalText(d.rerun.lowMs, d.rerun.highMs, d.seedSpreadMs, c.inp.options.msDecimals, false) : '-',
    outcomeWords(d, noDirectionText(c.a, d)) + (differenceOrderEffect(c.a, d).length ? '; order effect' : ''),
    ...(withClasses ? [classesCell(c.a, d)] : []),
  ]);
  return rows.length
    ? [
        table(
          [
            'cohort',
            'state',
            'metric',
            'difference',
            'observed (ms)',
            `${conf}% interval (ms)`,
            'between sessions (ms)',
            'paired rounds',
            'same direction in sessions',
            'same-class rerun (ms)',
            'result',
            ...(withClasses ? ['held on host classes'] : []),
          ],
          rows,
          c.a.decision?.rule === 'sequential'
            ? `Every difference of marginal medians; differences.csv has the same rows. Result: the sequential rule (docs/STATISTICS.md, Sequential decisions): detected (lower or higher, the verdict column); equivalent within ±δ (δ in % and ms, with the interval it was decided on); undecided.${seedNote}`
            : `Every difference of marginal medians; differences.csv has the same rows. Result: the one direction rule (docs/VERDICTS.md): detected; size uncertain (every session alone excludes 0 on one side, the between-session interval does not); sessions disagree (neither); equivalent within ±δ (δ in % and ms, with the interval it was decided on); not detected.${seedNote}`,
        ),
      ]
    : [];
}

export function cellTables(c: Ctx): Block[] {
  const { a } = c;
  const order = (x: CellStatistics): number => c.paths.indexOf(x.path) * 100 + c.states.indexOf(x.state) * 10 + (x.metric === 'ready' ? 0 : 1);
  return c.cohorts.map((cohort) =>
    table(
      ['path', 'state', 'metric', 'n of launches', 'failed (reason)', 'P50 or clusters', 'P95', 'min', 'max'],
      a.cells
        .filter((x) => x.cohort === cohort)
        .sort((p, q) => order(p) - order(q))
        .map((x) => [
          x.path,
          x.state,
          x.metric,
          `${x.n} of ${x.launches}`,
          x.failures === 0 ? '0' : failedText(a, x),
          x.split ? x.groups.map((g) => `${c.ms(g.medianMs)} (${c.f.pct(g.share)})`).join(' / ') : orDash(x.p50Ms, c.ms),
          orDash(x.p95Ms, c.ms) + (x.p95ReferenceOnly && x.p95Ms !== null ? ' (ref.)' : ''),
          orDash(x.minMs, c.ms),
          orDash(x.maxMs, c.ms),
        ]),
      `**${cohort}**, ms; statistics.csv has the same figures.`,
    ),
  );
}

export function dominanceTables(c: Ctx): Block[] {
  const rows = c.a.dominance
    .filter((d) => d.result === 'a-precedes-b' || d.result === 'b-precedes-a')
    .map((d) => {
      const [first, second, n1, n2] = d.result === 'a-precedes-b' ? [d.a, d.b, d.nA, d.nB] : [d.b, d.a, d.nB, d.nA];
      return [d.cohort, d.state, d.metric, side(c.a, d.cohort, first, d.state, d.metric), side(c.a, d.cohort, second, d.state, d.metric), `${n1} / ${n2}`];
    });
  return rows.length
    ? [
        table(
          ['cohort', 'state', 'metric', 'every launch of', 'is shorter than every launch of', 'valid launches'],
          rows,
          'Pairs of cells that do not overlap at all; every other pair overlaps. Failed launches are not among the values.',
        ),
      ]
    : [];
}

export function contentBlocks(c: Ctx): Block[] {
  const { a, inp } = c;
  const bytes = a.bytes.filter((b) => b.contentBytes.n > 0 || b.responseBytes.n > 0);
  if (bytes.length === 0) return [];
  const cellText = (s: (typeof bytes)[number]['contentBytes']): string =>
    s.n === 0 ? 'not counted' : s.identical ? grouped(s.median!) : `${grouped(s.median!)} (varies: ${grouped(s.min!)}–${grouped(s.max!)})`;
  const out: Block[] = [
    table(
      ['cohort', 'path', 'state', 'n', 'content bytes', 'response bytes'],
      bytes.map((b) => [b.cohort, b.path, b.state, String(Math.max(b.contentBytes.n, b.responseBytes.n)), cellText(b.contentBytes), cellText(b.responseBytes)]),
      'Bytes per launch through Completion, of launches that succeeded; a count that varies within its cell shows its median and range.',
    ),
  ];
  const varying = bytes.filter((b) => b.contentBytes.n > 0 && !b.contentBytes.identical);
  if (varying.length)
    out.push(
      paragraph(
        `Content counts that vary within a cell, each distinct value with its number of launches: ${varying.map((b) => `${b.cohort} ${b.path} ${b.state}: ${distinctContentText(inp.launches, b.cohort, b.path, b.state)}`).join('; ')}.`,
      ),
    );
  // paths with the same definition share one entry, so it is said once
  const byDef = new Map<string, string[]>();
  for (const p of c.paths.filter((x) => inp.options.paths[x]?.content)) {
    const d = inp.options.paths[p]!.content!.trim().replace(/\.$/, '');
    byDef.set(d, [...(byDef.get(d) ?? []), p]);
  }
  const defs = [...byDef].map(([d, ps]) => `${ps.join(' and ')}: ${d}`);
  out.push(
    paragraph(
      `${defs.length ? `What each path's content bytes are: ${defs.join('; ')}. ` : ''}Request counts per launch are not recorded in the sample table.`,
    ),
  );
  const fig = takeFigure(c, 'content-bytes.svg');
  if (fig) out.push(fig);
  return out;
}

export function pathBlocks(c: Ctx): Block[] {
  const cfg = c.inp.config;
  const items: string[] = [];
  for (const id of c.cohorts) {
    const co = cfg.cohorts?.[id];
    if (co)
      items.push(
        `Cohort \`${id}\`${co.description ? `: ${co.description.trim().replace(/\.$/, '')}` : ''}. Command ${code(co.command)}${co.image ? `, image \`${co.image}\`` : ''}.`,
      );
  }
  for (const id of c.paths) {
    const p = cfg.paths?.[id];
    if (!p) continue;
    const n = c.inp.options.paths[id];
    const confounds = n?.confounds.length ? ` Confounds: ${n.confounds.map((x) => x.trim().replace(/\.$/, '')).join('; ')}.` : '';
    items.push(
      `Path \`${id}\`${p.description ? `: ${p.description.trim().replace(/\.$/, '')}` : ''}.${n?.stack ? ` Runtime stack: ${n.stack}.` : ''} Launch ${code(p.launch)}.${confounds}`,
    );
  }
  const unlisted = c.paths.filter((id) => cfg.paths?.[id] && !c.inp.options.paths[id]?.confounds.length);
  return items.length
    ? [
        paragraph(
          'A comparison of two paths measures their whole start-up configurations; it isolates no single factor where the paths differ in more than one.' +
            (unlisted.length
              ? ` No confound is listed for ${unlisted.join(', ')} (report.paths), so no comparison with ${unlisted.length === 1 ? 'it' : 'them'} is said to isolate anything.`
              : ''),
        ),
        list(items),
      ]
    : [];
}

export function pinBlocks(inp: ReportInputs): Block[] {
  const pins = inp.pins;
  if (!pins) return [paragraph('This pipeline pins no artifact, so versions and image digests are not recorded.')];
  const host: string[] = [];
  if (pins.kernel) host.push(`kernel ${pins.kernel}`);
  if (pins.node) host.push(`Node ${pins.node}`);
  // Only the tools this experiment used (publish/used-tools.ts), when known.
  for (const b of pins.binaries ?? []) if (!inp.tools || inp.tools.includes(b.name)) host.push(`${b.name} ${b.version ?? '(version unknown)'}`);
  const images = Object.keys(pins.images ?? {})
    .sort()
    .map((id) => {
      const img = pins.images![id]!;
      const parts = [
        img.ref ?? null,
        img.manifestDigest ? `manifest ${img.manifestDigest}` : null,
        img.tarSha256 ? `tar sha256:${img.tarSha256}` : null,
        img.erofsSha256 ? `erofs sha256:${img.erofsSha256}` : null,
      ].filter(Boolean);
      return `Image \`${id}\`: ${parts.join(', ') || 'no digest recorded'}.`;
    });
  return [...(host.length ? [paragraph(`Pinned host and tools: ${host.join(', ')}.`)] : []), ...(images.length ? [list(images)] : [])];
}

export function preparationBlocks(c: Ctx): Block[] {
  const p = c.a.preparation;
  if (!p || p.length === 0) return [];
  return [
    table(
      ['service', 'artifact', 'operation', 'seconds'],
      p.map((x) => [x.service, x.artifact, x.operation, fixed(x.seconds, c.inp.options.secondsDecimals)]),
      'One observation per operation, timed apart from the clients; the operations differ, so no ranking is drawn.',
    ),
  ];
}

export function failureBlocks(c: Ctx): Block[] {
  if (c.a.failures.length === 0) return [];
  const per = c.a.cells.filter((x) => x.metric === 'ready' && x.failures > 0).map((x) => `${x.cohort} ${x.path} ${x.state}: ${countText(c.a, x)}`);
  return [
    table(
      ['cohort', 'path', 'state', 'reason', 'count'],
      c.a.failures.map((x) => [x.cohort, x.path, x.state, x.reason, String(x.count)]),
    ),
    ...(per.length ? [paragraph(`Cells with failures: ${per.join('; ')}.`)] : []),
  ];
}
