// report.md: the source report's structure rendered from the statistics and
// the pipeline file. Pure: the same inputs give the same bytes.
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';
import {
  cap,
  centreText,
  cohortConclusions,
  comparisonRounds,
  contentSentences,
  countText,
  differenceText,
  sessionsDisagreeInSize,
  failedText,
  failureCaveat,
  formatters,
  type Formatters,
} from './conclusions.js';
import { fixed, grouped, orDash } from './format-number.js';
import { orderIds, type ReportInputs } from './report-inputs.js';
import type { Plot } from './plot-specs.js';
import { cohortSummary } from './cohort-summary.js';
import { judgeFindings, sourceReference, type FindingVerdict } from './source-findings.js';
import { provenanceLines } from './render-provenance-md.js';
import { distinctContentText } from './content-detail.js';
import { shellLine } from '../process/shell-quote.js';
import { sessionCount, sessionScopeSentence, sessionsSection } from './sessions-section.js';
import { phaseBreakdown } from './phase-breakdown.js';
import { carryoverSection } from './carryover-section.js';
import { diskSection } from './disk-section.js';
import { differenceOrderEffect, differenceOrderNote, orderEffectSummary } from './order-effect-notes.js';

/** A figure line: the page replaces it with the interactive view of the same plot. */
export function figure(p: Plot): string {
  return `![${p.caption}](${p.file})`;
}

function table(header: string[], rows: string[][]): string[] {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)];
}

/** An argv as a shell would need it typed: words with spaces or quotes are single-quoted. */
const code = (argv: readonly string[]): string => '`' + shellLine(argv).replace(/`/g, "'") + '`';

export function renderReportMd(inp: ReportInputs, plots: readonly Plot[]): string {
  const f = formatters(inp.options);
  const a = inp.analysis;
  const cfg = inp.config;
  const L: string[] = [];
  L.push(`# ${inp.options.title ?? cfg.experiment.question}`, '');

  const cohorts = a
    ? orderIds(
        a.cells.map((c) => c.cohort),
        Object.keys(cfg.cohorts ?? {}),
      )
    : [];
  const paths = a
    ? orderIds(
        a.cells.map((c) => c.path),
        Object.keys(cfg.paths ?? {}),
      )
    : [];
  const states = a
    ? orderIds(
        a.cells.map((c) => c.state),
        cfg.design?.states ?? ['cold', 'warm'],
      )
    : [];

  const reference = sourceReference(cfg.experiment.reference);
  const verdicts = judgeFindings(reference, a);

  // Conclusions
  L.push('## Conclusions', '');
  if (!a) {
    L.push('No analysis.json was among the inputs: there are no statistics, so this report draws no conclusion.', '');
  } else if (a.cells.length === 0) {
    L.push('The sample table holds no formal launch: there is nothing to conclude.', '');
  } else {
    L.push(scopeSentence(inp), '');
    for (const cohort of cohorts) {
      const s = cohortSummary(a, cohort, paths, states, f, inp.options.paths, verdicts);
      const order = orderEffectSummary(a, cohort);
      L.push((cohorts.length > 1 ? `**${cohort}.** ` : '') + [...s, ...(order ? [order] : [])].join(' '), '');
    }
    L.push('Every interval, dominance and byte count behind these sentences is in "Data and analysis".', '');
  }

  if (reference) {
    L.push('## Against the source report', '');
    L.push(...sourceSection(reference.source, reference.setup, verdicts), '');
  }

  // Motivation
  L.push('## Motivation', '');
  L.push(cfg.experiment.motivation?.trim() || 'The pipeline file gives no motivation (experiment.motivation).', '');

  // Experiment design
  L.push('## Experiment design', '');
  L.push(...designSection(inp, cohorts, paths, a), '');

  // Data and analysis
  L.push('## Data and analysis', '');
  if (a) L.push(...dataSection(inp, a, cohorts, paths, states, f, plots));
  else L.push('No analysis.json was among the inputs.', '');
  for (const note of inp.options.notes) L.push(note.trim(), '');

  // Downloads and sources
  L.push('## Downloads and sources', '');
  L.push(
    '[Start-up and payload statistics CSV](statistics.csv) · [Differences and preparation costs CSV](differences.csv) · ' +
      '[Artifact and experiment provenance CSV](provenance.csv) · ' +
      (inp.launches.length ? '[Every launch, sample schema columns (samples.csv)](samples.csv) · ' : '') +
      '[This report as a web page](index.html) · [Reproduction manual](REPRODUCE.md)',
    '',
  );
  const src: string[] = [];
  if (inp.samplesSha256)
    src.push(
      `The raw samples are the DuckDB file with sha256 ${inp.samplesSha256}; it stays in the data folder with every frozen stage output, and samples.csv beside this report holds all its ${inp.launches.length} rows, which the import-samples stage reads back.`,
    );
  else src.push('No samples.duckdb was among the inputs.');
  src.push(
    `provenance.csv lists the output digest of each of the ${inp.stages.length} upstream stages${inp.pins ? ', every pinned artifact and binary with its sha256' : ''}.`,
  );
  if (inp.verify)
    src.push(
      inp.verify.ok ? 'Artifact hashes matched after sampling (verify).' : 'Artifact hashes did NOT all match after sampling (verify): see provenance.csv.',
    );
  else src.push('No verify stage ran: artifact hashes were not re-checked after sampling.');
  L.push(src.join(' '), '');
  return (
    L.join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** Where and with what the data was measured: the scope every conclusion carries. */
function scopeSentence(inp: ReportInputs): string {
  if (inp.options.scope) return `Scope: ${inp.options.scope.trim().replace(/\.$/, '')}.`;
  const h = inp.provenance.host;
  const virt = h?.virtualization && h.virtualization !== 'none' && h.virtualization !== 'none detected' ? ` (virtualization: ${h.virtualization})` : '';
  const services = Object.keys(inp.config.services ?? {}).length > 0;
  return (
    `Scope: one host${h?.vcpus ? ` with ${h.vcpus} vCPUs` : ''}${virt}, ${services ? 'every service on local loopback, ' : ''}` +
    'and the parts named in the design section; the conclusions hold for this setup only.'
  );
}

function sourceSection(source: string, setup: string | null, verdicts: FindingVerdict[]): string[] {
  const L: string[] = [];
  const judged = verdicts.filter((v) => v.verdict !== 'not measured');
  const differs = judged.filter((v) => v.verdict === 'differs');
  L.push(
    `Source: ${source.trim()}${setup ? ` Its setup: ${setup.trim().replace(/\.$/, '')}.` : ''} ` +
      `Of its ${verdicts.length} headline findings, ${judged.length - differs.length} agree with this run and ${differs.length} differ` +
      `${verdicts.length > judged.length ? `; ${verdicts.length - judged.length} cannot be judged here` : ''}. ` +
      'A difference of medians agrees when both runs detect the same direction or both detect none; a P50 agrees within the stated ratio; ' +
      'a dominance agrees when every launch of the first path is shorter than every launch of the second here too; a content reduction agrees when it points the same way.',
    '',
  );
  L.push(
    ...table(
      ['finding', 'cohort', 'state', 'source says', 'source', 'this run', 'verdict'],
      verdicts.map((v) => [
        v.finding.id,
        v.finding.cohort,
        v.finding.state ?? '-',
        v.finding.statement,
        v.source,
        v.ours,
        v.verdict === 'differs' ? '**differs**' : v.verdict,
      ]),
    ),
  );
  return L;
}

function designSection(inp: ReportInputs, cohorts: string[], paths: string[], a: AnalysisResult | null): string[] {
  const cfg = inp.config;
  const L: string[] = [];
  const pins = inp.pins;
  if (pins) {
    const host: string[] = [];
    if (pins.kernel) host.push(`kernel ${pins.kernel}`);
    if (pins.node) host.push(`Node ${pins.node}`);
    for (const b of pins.binaries ?? []) host.push(`${b.name} ${b.version ?? '(version unknown)'}`);
    if (host.length) L.push(`Pinned host and tools: ${host.join(', ')}.`, '');
    for (const id of Object.keys(pins.images ?? {}).sort()) {
      const img = pins.images![id]!;
      const parts = [
        img.ref ? `${img.ref}` : null,
        img.manifestDigest ? `manifest ${img.manifestDigest}` : null,
        img.tarSha256 ? `tar sha256:${img.tarSha256}` : null,
        img.erofsSha256 ? `erofs sha256:${img.erofsSha256}` : null,
        img.source
          ? `from ${img.source.kind}, ${img.source.indexDigest ? `index ${img.source.indexDigest} pinned to ${img.source.platform} digest ${img.source.platformManifestDigest}` : `source digest ${img.source.sourceDigest} (${img.source.platform})`}, ${(img.layers ?? []).length} layers (${(img.layers ?? []).map((l) => `${l.size} bytes ${l.mediaType ?? ''}`.trim()).join('; ')})`
          : null,
      ].filter(Boolean);
      L.push(`- Image \`${id}\`: ${parts.join(', ') || 'no digest recorded'}.`);
    }
    L.push('');
  } else {
    L.push('No pins.json was among the inputs: this pipeline pins no artifact, so versions and image digests are not recorded.', '');
  }
  for (const id of cohorts.length ? cohorts : Object.keys(cfg.cohorts ?? {})) {
    const c = cfg.cohorts?.[id];
    if (!c) continue;
    L.push(`- Cohort \`${id}\`${c.description ? `: ${c.description.trim()}` : ''}. Command ${code(c.command)}${c.image ? `, image \`${c.image}\`` : ''}.`);
  }
  for (const id of paths.length ? paths : Object.keys(cfg.paths ?? {})) {
    const p = cfg.paths?.[id];
    if (!p) continue;
    const n = inp.options.paths[id];
    L.push(
      `- Path \`${id}\`${p.description ? `: ${p.description.trim()}` : ''}. Launch ${code(p.launch)}.` +
        (n?.stack ? ` Runtime stack: ${n.stack}.` : '') +
        (n?.content ? ` Its content bytes are ${n.content.trim().replace(/\.$/, '')}.` : ''),
    );
    if (n?.confounds.length) for (const c of n.confounds) L.push(`  - Confound: ${c.trim()}`);
    else L.push('  - Confounds: none listed (report.paths in the pipeline file); no comparison with this path is said to isolate anything.');
  }
  L.push('');
  L.push(
    'A comparison of two paths measures their whole start-up configurations: it isolates no single factor where the paths differ in more than one (the confounds above).',
    '',
  );
  const d = cfg.design;
  if (d) {
    L.push(
      `${d.rounds} formal rounds per cohort, cache states ${d.states.join(' and ')}, seed \`${d.seed}\`. ` +
        `The order of paths is randomized within each round; each path's cold launch is followed immediately by its warm launch. ` +
        `Before them, ${d.preflight} preflight round${d.preflight === 1 ? '' : 's'} per cohort (the warmup stage) and ${d.warmup_rounds} warmup round${d.warmup_rounds === 1 ? '' : 's'} run; neither enters the analysis. ` +
        `A launch times out after ${d.timeout_s} s.`,
      '',
    );
  }
  if (!inp.session) L.push('No session.json was among the inputs.', '');
  if (a) {
    const byPhase = (phase: string): number => a.phases.filter((p) => p.phase === phase).reduce((s, p) => s + p.launches, 0);
    const pre = inp.preflight
      ? `${inp.preflight.launches} preflight launches (${inp.preflight.failures} failed) ran in the warmup stage and are recorded in its warmup.json, not in the sample table`
      : 'no preflight launch was recorded among the inputs (no warmup.json)';
    L.push(
      `The sample table holds ${byPhase('formal')} formal and ${byPhase('warmup')} warmup launches; ${pre}. ` +
        'Only formal launches enter the statistics. Failed launches are counted as failures, never dropped silently, and no launch is excluded for its speed.',
      '',
    );
  }
  L.push(
    'Ready is measured from spawning the launch command to reading the complete marker line from its stdout. ' +
      "Completion ends when the process has exited and both stdout and stderr are closed, so it includes the path's own teardown. " +
      'Content bytes are HTTP body bytes of image data the client received; response bytes are every byte counted services sent on their TCP streams, headers and protocol frames included. ' +
      'Service preparation is recorded separately from client timing.',
    '',
  );
  const unmeasured = cfg.experiment.unmeasured ?? [];
  if (unmeasured.length) L.push(`Unmeasured: ${unmeasured.map((u) => u.trim().replace(/\.$/, '')).join('; ')}.`, '');
  else L.push('The pipeline file lists nothing as unmeasured (experiment.unmeasured); results describe only the configurations above.', '');
  L.push('### Host and provenance', '');
  L.push(...provenanceLines(inp.provenance, inp.launches), '');
  return L;
}

function dataSection(
  inp: ReportInputs,
  a: AnalysisResult,
  cohorts: string[],
  paths: string[],
  states: string[],
  f: Formatters,
  plots: readonly Plot[],
): string[] {
  const plot = (file: string): string[] => {
    const p = plots.find((x) => x.file === file);
    return p ? [figure(p), ''] : [];
  };
  const L: string[] = [];
  const r = a.rules;
  const order = (c: CellStatistics): number => paths.indexOf(c.path) * 100 + states.indexOf(c.state) * 10 + (c.metric === 'ready' ? 0 : 1);
  for (const cohort of cohorts) {
    const cells = a.cells.filter((c) => c.cohort === cohort).sort((x, y) => order(x) - order(y));
    const readyCells = cells.filter((c) => c.metric === 'ready');
    const ns = [...new Set(readyCells.map((c) => c.n))];
    const valid = readyCells.reduce((s, c) => s + c.n, 0);
    const failures = readyCells.reduce((s, c) => s + c.failures, 0);
    L.push(`### ${cap(cohort)}: client start-up waiting`, '');
    const launches = readyCells.reduce((s, c) => s + c.launches, 0);
    L.push(
      `${ns.length === 1 ? `n=${ns[0]} per cell` : `n from ${Math.min(...ns)} to ${Math.max(...ns)} per cell`}, ${valid} valid samples of ${launches} formal launches, ` +
        `${failures === 0 ? 'zero' : failures} formal failures and zero speed-based exclusions. ` +
        (failures === 0
          ? ''
          : 'Failed launches are left out of every statistic below (P50, clusters, P95, min, max, dominance, intervals), so the slowest launches may be missing from the cells that have failures; each row says how many. ') +
        `Unit ms; quantiles are ${a.quantile}. ` +
        `Unsplit distributions report P50, separated ones report cluster medians and shares. ` +
        `P95 is reference-only below n=${r.p95ReferenceBelowN}.`,
      '',
    );
    L.push(
      ...table(
        ['path', 'state', 'metric', 'n of launches', 'failed (reason)', 'P50 or clusters', 'P95', 'min', 'max'],
        cells.map((c) => [
          c.path,
          c.state,
          c.metric,
          `${c.n} of ${c.launches}`,
          c.failures === 0 ? '0' : failedText(a, c),
          c.split
            ? c.groups.map((g) => `${fixed(g.medianMs, inp.options.msDecimals)} (${f.pct(g.share)})`).join(' / ')
            : orDash(c.p50Ms, (v) => fixed(v, inp.options.msDecimals)),
          orDash(c.p95Ms, (v) => fixed(v, inp.options.msDecimals)) + (c.p95ReferenceOnly && c.p95Ms !== null ? ' (ref.)' : ''),
          orDash(c.minMs, (v) => fixed(v, inp.options.msDecimals)),
          orDash(c.maxMs, (v) => fixed(v, inp.options.msDecimals)),
        ]),
      ),
      '',
    );
    const dom = a.dominance.filter((d) => d.cohort === cohort && d.result !== 'overlap' && d.result !== 'empty');
    if (dom.length) {
      L.push(
        dom
          .map((d) => {
            const [first, second, n] = d.result === 'a-precedes-b' ? [d.a, d.b, d.nA] : [d.b, d.a, d.nB];
            const caveat = failureCaveat(a, cohort, d.state, d.metric, [d.a, d.b]);
            return caveat
              ? `Every valid ${d.state} ${first} ${d.metric} value (n=${n}) is shorter than every valid ${d.state} ${second} value, but ${caveat}${differenceOrderNote(a, d)}.`
              : `Every ${d.state} ${first} ${d.metric} value (n=${n}) is shorter than every ${d.state} ${second} value${differenceOrderNote(a, d)}.`;
          })
          .join(' ') + ' The direction of these cells does not depend on a single median.',
        '',
      );
    }
    const split = cells.filter((c) => c.split);
    L.push(
      split.length
        ? `Cluster rule outcome: it separated ${split.length} of ${cells.length} cells: ${split.map((c) => `${c.path} ${c.state} ${c.metric} (${centreText(c, f)}; ${countText(a, c)})`).join('; ')}. Their causes are undetermined.`
        : `Cluster rule outcome: it separated none of the ${cells.length} cells, so every cell is reported by its P50.`,
      '',
    );
    L.push(`Per-cell detail: ${[...cohortConclusions(a, cohort, paths, states, f), ...contentSentences(a, cohort, states, f)].join(' ')}`, '');
    L.push(...plot(`ecdf-${cohort.toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}.svg`));

    L.push(...phaseBreakdown(a, cohort, inp.options.msDecimals));

    const diffs = a.differences.filter((d) => d.cohort === cohort);
    if (diffs.length) {
      L.push(`#### ${cap(cohort)}: differences of marginal medians`, '');
      L.push(
        `Resampling the sessions, then the complete paired formal rounds within each drawn session, ${grouped(r.bootstrap.resamples)} times with replacement (seed \`${r.bootstrap.seed}\`) gives ` +
          `${fixed(r.bootstrap.confidence * 100, 0)}% percentile intervals for each difference of marginal medians. ` +
          'Only rounds in which both paths have a valid value are resampled; a round with a failed launch is left out. ' +
          'An interval containing 0 means no difference is detected; one that excludes 0 shows which path has the lower median, not that every launch of it is faster. ' +
          'These intervals do not describe cluster centres and do not establish a speed multiplier or a cause. ' +
          sessionScopeSentence(sessionCount(a)),
        '',
      );
      L.push(
        ...table(
          [
            'state',
            'metric',
            'difference',
            'observed (ms)',
            `${fixed(r.bootstrap.confidence * 100, 0)}% interval (ms)`,
            'between sessions (ms)',
            'paired rounds used',
            'same direction in',
            'result',
          ],
          diffs.map((d) => [
            d.state,
            d.metric,
            `${d.a} − ${d.b}`,
            orDash(d.observedMs, (v) => fixed(v, inp.options.msDecimals)),
            d.lowMs === null || d.highMs === null ? '-' : `[${fixed(d.lowMs, inp.options.msDecimals)}, ${fixed(d.highMs, inp.options.msDecimals)}]`,
            d.sessionLowMs === null || d.sessionHighMs === null
              ? '-'
              : `[${fixed(d.sessionLowMs, inp.options.msDecimals)}, ${fixed(d.sessionHighMs, inp.options.msDecimals)}]`,
            `${d.rounds} of ${comparisonRounds(a, d)}`,
            d.sessions > 1 ? `${d.sameDirection} of ${d.sessions} sessions` : '1 session',
            (d.observedMs === null
              ? 'not computable'
              : d.detected
                ? 'difference detected'
                : sessionsDisagreeInSize(d)
                  ? 'not established: sessions disagree in size'
                  : 'no difference detected') + (differenceOrderEffect(a, d).length ? '; order effect' : ''),
          ]),
        ),
        '',
      );
      L.push(
        diffs
          .filter((d) => d.metric === 'ready')
          .map((d) => cap(differenceText(d, f, 'Ready', comparisonRounds(a, d))) + differenceOrderNote(a, d) + '.')
          .join(' '),
        '',
      );
    }

    const bytes = a.bytes
      .filter((b) => b.cohort === cohort)
      .sort((x, y) => paths.indexOf(x.path) * 10 + states.indexOf(x.state) - (paths.indexOf(y.path) * 10 + states.indexOf(y.state)));
    if (bytes.some((b) => b.contentBytes.n > 0 || b.responseBytes.n > 0)) {
      L.push(`#### ${cap(cohort)}: client content transfer`, '');
      const allSame = bytes.every((b) => b.contentBytes.identical && b.responseBytes.identical);
      L.push(
        `Unit bytes, measured through Completion, of launches that succeeded; ${allSame ? 'counts are identical within each cell' : 'counts differ within some cells (marked), so the median is shown with the range'}.`,
        '',
      );
      const cellText = (s: (typeof bytes)[number]['contentBytes']): string =>
        s.n === 0 ? 'not counted' : s.identical ? grouped(s.median!) : `${grouped(s.median!)} (varies: ${grouped(s.min!)}–${grouped(s.max!)})`;
      const launchesOf = (b: (typeof bytes)[number]): CellStatistics | undefined =>
        a.cells.find((c) => c.cohort === b.cohort && c.path === b.path && c.state === b.state);
      L.push(
        ...table(
          ['path', 'state', 'n of launches', 'failed (reason)', 'content bytes', 'response bytes'],
          bytes.map((b) => {
            const c = launchesOf(b);
            const n = String(Math.max(b.contentBytes.n, b.responseBytes.n));
            return [
              b.path,
              b.state,
              c ? `${n} of ${c.launches}` : n,
              !c || c.failures === 0 ? '0' : failedText(a, c),
              cellText(b.contentBytes),
              cellText(b.responseBytes),
            ];
          }),
        ),
        '',
      );
      const varying = bytes.filter((b) => b.contentBytes.n > 0 && !b.contentBytes.identical);
      if (varying.length) {
        L.push(
          `Content counts that vary within a cell, each distinct value with its number of launches: ${varying.map((b) => `${b.path} ${b.state}: ${distinctContentText(inp.launches, cohort, b.path, b.state)}`).join('; ')}. ` +
            'The cause of the variation is not recorded by the sample table.',
          '',
        );
      }
      const defs = paths.filter((p) => inp.options.paths[p]?.content).map((p) => `${p}: ${inp.options.paths[p]!.content!.trim().replace(/\.$/, '')}`);
      L.push(
        (defs.length
          ? `What each path's content bytes are: ${defs.join('; ')}. `
          : "The pipeline file does not say what each path's content bytes are (report.paths.<path>.content), so compressed and uncompressed counts may be mixed. ") +
          'Request counts per launch are not recorded in the sample table, so they are not shown.',
        '',
      );
    } else {
      L.push(`No byte counts were recorded for ${cohort} (no path uses a counted service).`, '');
    }
  }
  L.push(...plot('differences.svg'), ...plot('rounds.svg'), ...plot('content-bytes.svg'));

  L.push(...sessionsSection(a, inp.sessions, inp.options.msDecimals));
  L.push(...diskSection(a, inp.sessions, cohorts, paths, inp.options.msDecimals));
  L.push(...carryoverSection(a, cohorts, paths, states, inp.options.msDecimals));

  L.push('### Cluster rule', '');
  L.push(
    `A cell splits when, after sorting, it can be cut into groups of at least ${f.pct(r.clusters.minGroupShare)} of the cell's values (and at least 2) each ` +
      `such that the gap at every cut is at least ${r.clusters.minGapRatio} times the pooled standard deviation of the two groups beside it; ` +
      `up to ${r.clusters.maxGroups} groups, the most groups that pass are taken, and among those the cuts whose weakest gap scores highest. No value is ever dropped.`,
    '',
  );

  L.push('### Image-service preparation cost', '');
  if (a.preparation === null) {
    L.push('No preparation.json was among the inputs: this pipeline has no prepare stage, so preparation costs were not recorded.', '');
  } else if (a.preparation.length === 0) {
    L.push('The prepare stage recorded no preparation operation.', '');
  } else {
    L.push(
      'Unit s, one observation per operation, single observed values, excluded from client timing. Preparation paths and work differ, so no preparation-speed ranking or break-even estimate is supplied.',
      '',
    );
    L.push(
      ...table(
        ['service', 'artifact', 'operation', 'seconds'],
        a.preparation.map((p) => [p.service, p.artifact, p.operation, fixed(p.seconds, inp.options.secondsDecimals)]),
      ),
      '',
    );
  }
  if (a.failures.length) {
    L.push('### Failures', '');
    L.push(
      ...table(
        ['cohort', 'path', 'state', 'reason', 'count'],
        a.failures.map((x) => [x.cohort, x.path, x.state, x.reason, String(x.count)]),
      ),
      '',
    );
  }
  return L;
}
