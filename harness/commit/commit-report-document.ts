// The commit-diff report as a document (pure): the question, the scope, one
// summary table (per state at the largest base: naive and native P50, their
// ratio with its interval, the verdict, the source's figure) and at most five
// sentences first; then growth (both fits), the source's claims against this
// run, many-file initial commits, method and what is not established; every
// long table in the appendix. Each number is said once in the main text.
import type { Plot } from '../publish/plot.js';
import { fixed } from '../publish/format-number.js';
import { directionRuleBrief } from '../analysis/direction-rule.js';
import { sequentialRuleSentence } from '../comparison/rule-words.js';
import { hostNoiseBlocks } from '../publish/session-sections.js';
import { figure, list, paragraph, section, sentences, table, type Block, type ReportDocument, type Section } from '../document/document-model.js';
import type { CommitAnalysis, Growth } from './commit-analysis.js';
import type { CommitPosition } from './commit-position.js';
import type { CommitReportInputs } from './commit-report-inputs.js';
import { commitsCsvFile } from './commit-csvs.js';
import {
  betterCell,
  baseText,
  cellText,
  cpuDropSentence,
  verdictCell,
  exponentArtifactSentence,
  naiveFloorSentence,
  seedDigitsSentence,
  exponentCell,
  floorPowerCell,
  quadraticClaimSentence,
  interpretation,
  largestBase,
  lineCell,
  manyFileVerdict,
  undecidedText,
  mb,
  ms,
  ratioAt,
  ratioCell,
  scopeLine,
  sourceCell,
} from './commit-phrases.js';

/** Cells in the order of their dimensions as numbers (total_mb, file_count, change_bytes), not as text. */
const dimOrder = ['total_mb', 'file_count', 'change_bytes'];
function byDims<T extends { dims: Record<string, number> }>(rows: readonly T[]): T[] {
  return [...rows].sort((p, q) => {
    for (const k of dimOrder) {
      const d = (p.dims[k] ?? 0) - (q.dims[k] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** Numbers of a cell key such as "change_bytes=1024,file_count=100,total_mb=2000". */
function dimsOfKey(cell: string): Record<string, number> {
  return Object.fromEntries(
    cell.split(',').map((kv) => {
      const [k, v] = kv.split('=');
      return [k ?? '', Number(v)];
    }),
  );
}

export const summaryHeader = ['commit', 'base', 'naive P50', 'native P50', 'naive/native [95% CI]', 'verdict', 'source (containerd, 10 GB)'] as const;

export function summaryTable(a: CommitAnalysis): Block | null {
  const big = largestBase(a);
  if (!big) return null;
  const rows = a.states.flatMap((state) => {
    const r = ratioAt(a, big, state);
    if (!r) return [];
    return [
      [
        state,
        cellText(big),
        ms(r.medianA),
        ms(r.medianB),
        ratioCell(r.comparison, r.intervalDigits, r.seedSpread),
        verdictCell(r.comparison, r.judgement),
        sourceCell(state),
      ],
    ];
  });
  return rows.length ? table(summaryHeader, rows) : null;
}

function growthSection(a: CommitAnalysis, plots: readonly Plot[]): Section[] {
  return section('Growth with the file count and the base', [
    paragraph(
      'Least-squares fits per engine and commit: t = floor + cost × n (solid lines) and t = floor + c × n^k, whose k names a shape only when three or more sizes have every commit above the floor interval. Intervals resample the commits within each size; each fit with its intervals, and the power law t = s × n^b (dashed), are in the appendix "Growth fits, in full".',
    ),
    ...plots.map((p) => figure(p.file, p.caption)),
    sentences([naiveFloorSentence(a)]),
  ]);
}

const dimensionCell = (g: Growth): string => (g.dimension === 'file_count' ? 'files' : 'MB');

/** The power law beside the line, for the appendix: its exponent and which of the two misses the commits less. */
function powerLawSection(a: CommitAnalysis): Section[] {
  const fits = a.growth.filter((g) => g.dimension === 'file_count' || g.dimension === 'total_mb');
  return section('Growth fits, in full', [
    fits.length
      ? table(
          ['against', 'engine', 'commit', 'floor + cost per unit [95% CI]', 'floor + c·n^k'],
          fits.map((g) => [dimensionCell(g), g.method, g.state, lineCell(g), floorPowerCell(g)]),
        )
      : null,
    paragraph(
      'The power law t = s × n^b is a line on log-log axes. The better fit has the smaller root mean square log residual (line vs power law in brackets; within 5%: alike).',
    ),
    fits.length
      ? table(
          ['against', 'engine', 'commit', 'exponent b [95% CI]', 'better fit'],
          fits.map((g) => [dimensionCell(g), g.method, g.state, exponentCell(g), betterCell(g)]),
        )
      : null,
    sentences([exponentArtifactSentence(a)]),
  ]);
}

function sourceSection(a: CommitAnalysis): Section[] {
  const big = largestBase(a);
  const small = a.ratios.find(
    (r) => r.state === 'incremental' && r.dims['total_mb'] === 100 && r.dims['file_count'] === 100 && r.dims['change_bytes'] === 1024,
  );
  const initial = big ? ratioAt(a, big, 'initial') : undefined;
  return section("The source's claims against this run", [
    paragraph(
      "The source (Sealos DevBox) says containerd's double-walk diff compares every entry of one tree with the other: O(n²) in the number of entries. Reading the overlay upperdir instead is O(m) in the change.",
    ),
    list(
      [
        initial && !initial.comparison.findings.detected
          ? 'Contradicted: the source has commits falling "from 15 minutes to 1 second" and its P99 from over 900 s to about 180 s; not so for the initial commit here (summary).'
          : null,
        small && small.medianA !== null && small.medianA < 5000
          ? `Contradicted in size: a 100-file, 100 MB base commits incrementally in ${ms(small.medianA)} with the naive diff, not in tens of seconds.`
          : null,
        quadraticClaimSentence(a),
        cpuDropSentence(big ? ratioAt(a, big, 'incremental') : undefined),
      ].filter((s): s is string => s !== null),
    ),
  ]);
}

function manyFileSection(a: CommitAnalysis): Section[] {
  const rows = byDims(a.ratios.filter((r) => r.state === 'initial' && (r.dims['file_count'] ?? 0) >= 10000));
  if (!rows.length) return [];
  const k = rows[0]!.comparison.sessions;
  const bases = new Set(rows.map((r) => baseText(r.dims)));
  const sharedBase = bases.size === 1 ? [...bases][0]! : null;
  return section('Many-file initial commits: is native slower?', [
    paragraph(`Initial commits of 10,000 files or more, where native may be the slower engine; verdicts by the rule of Method.`),
    table(
      // the base and change said once in the header when every row shares them
      [sharedBase ? `files (${sharedBase})` : 'cell', 'naive P50', 'native P50', 'naive/native [95% CI]', 'between sessions', 'verdict'],
      rows.map((r) => [
        sharedBase ? String(r.dims['file_count']) : cellText(r.dims),
        ms(r.medianA),
        ms(r.medianB),
        ratioCell(r.comparison, r.intervalDigits, r.seedSpread),
        r.comparison.sessionLow !== null ? `${fixed(r.comparison.sessionLow, 2)}–${fixed(r.comparison.sessionHigh!, 2)}` : '–',
        manyFileVerdict(r),
      ]),
    ),
    rows.every((r) => !r.comparison.findings.detected) ? paragraph(undecidedText(k)) : null,
  ]);
}

const POSITION_IN_FULL = 'Position in the round, in full';
const ratioWithInterval = (p: CommitPosition): string => `×${p.ratio.toFixed(2)} [${p.low.toFixed(2)}, ${p.high.toFixed(2)}]`;

/** Whether a commit made second of its cell in a round took longer than one made first (commit-position.ts): the ones whose interval excludes 1, by name. */
function positionSection(a: CommitAnalysis): Section[] {
  const ps = a.positions ?? [];
  if (!ps.length) return [];
  const beyond = ps.filter((p) => p.low > 1 || p.high < 1);
  const named = beyond
    .slice(0, 4)
    .map((p) => `${p.method} ${p.state}, ${cellText(p.dims)}: ${ratioWithInterval(p)}`)
    .join('; ');
  return section('Position in the round', [
    paragraph(
      `Each round visits a cell once per method, in a balanced order; a commit is the cell's first or its second of the round. ` +
        (beyond.length
          ? `For ${beyond.length} of ${ps.length} cells × commits × methods, the median of second commits over first ones has a 95% interval that excludes 1 (an order effect): ${named}${beyond.length > 4 ? `; and ${beyond.length - 4} more` : ''}. Their medians mix the two positions. With no order effect anywhere, about ${(0.05 * ps.length).toFixed(1)} of ${ps.length} intervals at 95% would exclude 1 by chance.`
          : `For none of the ${ps.length} cells × commits × methods does the median of second commits over first ones have a 95% interval that excludes 1: no order effect is seen.`) +
        ` Every one: the appendix "${POSITION_IN_FULL}".`,
    ),
  ]);
}

function positionAppendix(a: CommitAnalysis): Section[] {
  const ps = a.positions ?? [];
  return section(POSITION_IN_FULL, [
    ps.length
      ? table(
          ['cell', 'commit', 'method', 'second / first [95% CI]', 'commits first, second'],
          ps.map((p) => [cellText(p.dims), p.state, p.method, ratioWithInterval(p), `${p.nFirst}, ${p.nSecond}`]),
          'Median wall time of the commits a method made second of its cell in a round over those it made first; two-sample bootstrap interval (analysis.bootstrap).',
        )
      : null,
  ]);
}

function methodSection(inp: CommitReportInputs): Section[] {
  const s = inp.session;
  return section('Method', [
    list(
      [
        "Two private Docker engines from one `dockerd`: **naive** started while overlay's `redirect_dir` is on, so overlay2 walks the lower and merged trees; **native** tars the upperdir. `docker info` confirmed each before sampling.",
        '**initial**: a container writes F random files totalling S MB, then `docker commit`. **incremental**: a container from that image writes one file, then `docker commit`.',
        `Per commit: wall time, engine CPU (dockerd and descendants, /proc), bytes read, layer size. Design in \`${inp.pipelineFileName}\`: ${s.sessions ?? 1} independent sessions × ${s.rounds ?? '?'} rounds, ${s.warmupRounds ?? 0} warmup round per session excluded, order ${s.order ?? 'random'}, seed \`${s.seed ?? ''}\`.`,
        `Ratio interval: two-level bootstrap (sessions, then rounds; ${inp.analysis.bootstrap.resamples} resamples), ${(s.sessions ?? 1) >= 3 ? 'and' : 'with 3 or more sessions'} a Student t interval over the per-session log ratios. ${sequentialRuleSentence(inp.analysis.ratios.map((r) => r.judgement)) ?? directionRuleBrief('1')}`,
        seedDigitsSentence(inp.analysis),
        inp.operating ?? null,
        ...(inp.notes ?? []).map((n) => n.trim()),
      ].filter((s): s is string => s !== null),
    ),
  ]);
}

function limitsSection(inp: CommitReportInputs): Section[] {
  const maxMb = Math.max(...inp.analysis.cells.map((c) => c.dims['total_mb'] ?? 0));
  return section('What is not established', [
    list([
      "containerd was not measured: Docker 20.10's overlay2 driver stands in for its diff service.",
      `Bases stop at ${maxMb} MB on this host; the source used 10 GB, so its absolute times are not expected here.`,
      'The time is all of `docker commit`, not the diff alone; no profiler was attached.',
      'The page cache was not dropped between commits.',
    ]),
  ]);
}

function appendix(inp: CommitReportInputs): Section[] {
  const a = inp.analysis;
  const comp = a.compression;
  return [
    ...powerLawSection(a),
    ...positionAppendix(a),
    ...section('Every cell: naive/native', [
      table(
        ['cell', 'commit', 'naive P50', 'native P50', 'naive/native [95% CI]', 'between sessions', 'naive slower (sessions)', 'verdict'],
        byDims(a.ratios).map((r) => [
          cellText(r.dims),
          r.state,
          ms(r.medianA),
          ms(r.medianB),
          ratioCell(r.comparison, r.intervalDigits, r.seedSpread),
          r.comparison.sessionLow !== null ? `${fixed(r.comparison.sessionLow, 2)}–${fixed(r.comparison.sessionHigh!, 2)}` : '–',
          `${r.naiveSlowerSessions} of ${r.comparison.sessions}`,
          verdictCell(r.comparison, r.judgement),
        ]),
      ),
    ]),
    ...section('Engine CPU and bytes read (P50 per commit)', [
      table(
        ['cell', 'commit', 'engine', 'wall', 'engine CPU', 'CPU naive/native [95% CI]', 'read (disk)', 'read (calls)', 'layer'],
        byDims(a.cells).map((c) => {
          const r = a.ratios.find((x) => x.cell === c.cell && x.state === c.state);
          return [
            cellText(c.dims),
            c.state,
            c.method,
            ms(c.p50WallMs),
            ms(c.p50EngineCpuMs),
            c.method === 'naive' ? ratioCell(r?.engineCpu ?? null) : '',
            mb(c.p50DiskReadBytes),
            mb(c.p50ReadCharsBytes),
            mb(c.p50LayerBytes),
          ];
        }),
      ),
    ]),
    ...section("Compression of one committed layer (the source's next bottleneck)", [
      comp.length
        ? table(
            ['method', 'n', 'P50 time', 'layer', 'compressed', 'MB/s', 'note'],
            comp.map((c) => [
              c.method,
              String(c.n),
              ms(c.p50WallMs),
              mb(c.p50LayerBytes),
              mb(c.p50CompressedBytes),
              c.mbPerS === null ? '–' : fixed(c.mbPerS, 0),
              c.note,
            ]),
          )
        : null,
      comp.length ? paragraph('The data is random, so it does not compress; real workspaces do.') : null,
    ]),
    ...section('Change-set checks', [
      paragraph(
        `${inp.checks.filter((c) => c.equal).length} of ${inp.checks.length} compared layers are equal between the engines (sorted tar listings: paths, types, sizes, whiteouts).`,
      ),
      inp.checks.length
        ? list(
            byDims(inp.checks.map((x) => ({ ...x, dims: dimsOfKey(x.cell) }))).map(
              (c) => `${cellText(c.dims)}, ${c.state}: ${c.equal ? `equal (${c.entries} entries)` : `DIFFERENT: ${c.differences.slice(0, 3).join('; ')}`}`,
            ),
          )
        : null,
    ]),
    ...section('Provenance', [
      list(
        [
          inp.session.durationS !== undefined
            ? `Sampling (commit-sample, every session of its last attempt): ${fixed(inp.session.durationS / 60, 1)} min.`
            : null,
          inp.commit !== undefined
            ? inp.commit
              ? `benchgraph commit \`${inp.commit.sha}\`${inp.commit.dirty ? ' with uncommitted changes (dirty)' : ' (clean)'}.`
              : 'benchgraph commit: not a git checkout.'
            : null,
          inp.pins?.kernel ? `Kernel ${inp.pins.kernel}, Node ${inp.pins.node ?? ''}.` : null,
          ...(inp.pins?.binaries ?? [])
            .filter((x) => ['dockerd', 'docker', 'skopeo', 'docker-registry'].includes(x.name))
            .map((b) => `${b.name} ${b.version ?? ''} sha256 \`${b.sha256 ?? '-'}\``),
          ...inp.stages.map((s) => `stage \`${s.id}\` (${s.kind}): \`${s.outputDigest}\``),
          inp.samplesSha256 ? `samples.duckdb sha256 \`${inp.samplesSha256}\`` : null,
          'See REPRODUCE.md.',
        ].filter((s): s is string => s !== null),
      ),
    ]),
    ...section('Sessions and host noise', hostNoiseBlocks(inp.sessionRecords ?? null, inp.noise ? { noise: inp.noise } : {}, 'here')),
  ];
}

export function commitReportDocument(inp: CommitReportInputs, plots: readonly Plot[]): ReportDocument {
  const a = inp.analysis;
  const opening: Block[] = [];
  if (inp.experiment.question) opening.push(paragraph(`**Question.** ${inp.experiment.question}`));
  opening.push(paragraph(scopeLine(inp)));
  const summary = summaryTable(a);
  if (summary) opening.push(summary);
  const interp = sentences(interpretation(a));
  if (interp) opening.push(interp);
  const downloads = paragraph(
    `Beside this report: \`${commitsCsvFile}\` (one row per formal commit: wall and engine CPU ms, bytes read, layer bytes); \`ratios.csv\`, \`cells.csv\`, \`growth.csv\`, \`compression.csv\`; \`samples.csv\` in the format every experiment shares.`,
  );
  return {
    title: `${inp.experiment.name}: docker commit, naive double walk vs native upperdir diff`,
    opening,
    sections: [
      ...growthSection(a, plots),
      ...sourceSection(a),
      ...manyFileSection(a),
      ...positionSection(a),
      ...methodSection(inp),
      ...limitsSection(inp),
      ...section('Downloads', [downloads]),
    ],
    appendix: appendix(inp),
  };
}
