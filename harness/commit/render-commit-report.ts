// Pure: the commit-diff report (report.md, CSVs, REPRODUCE.md, plot specs)
// from the analysis, the change-set checks, the session facts and the pins.
// Conclusions first; every figure is from the analysis of this run's samples.
import { csv, fixed } from '../report/format-number.js';
import type { PlotSpec } from '../report/plot-adapter.js';
import type { CommitAnalysis, Growth } from './commit-analysis.js';

export interface CommitReportInputs {
  experiment: { name: string; question?: string };
  pipelineFileName: string;
  analysis: CommitAnalysis;
  checks: { cell: string; state: string; entries: number | null; equal: boolean; differences: string[] }[];
  session: { seed?: string; sessions?: number; rounds?: number; warmupRounds?: number; order?: string; durationS?: number; cpus?: number; image?: string };
  pins: {
    kernel?: string;
    node?: string;
    binaries?: { name: string; version?: string; sha256?: string; path?: string }[];
    images?: Record<string, { tarSha256?: string; tarBytes?: number }>;
  } | null;
  stages: { id: string; kind: string; outputDigest: string }[];
  samplesSha256: string | null;
  /** report.notes of the pipeline file: context the data cannot state (e.g. that the machine was quiet). */
  notes?: string[];
}

const ms = (v: number | null): string => (v === null ? '–' : v >= 1000 ? `${fixed(v / 1000, 2)} s` : `${fixed(v, 0)} ms`);
const mb = (v: number | null): string => (v === null ? '–' : `${fixed(v / 1e6, 1)} MB`);
const x2 = (v: number | null): string => (v === null ? '–' : `${fixed(v, 2)}×`);
const slopeText = (g: Growth): string => (g.fit ? `b = ${fixed(g.fit.slope, 2)} [${fixed(g.fit.low, 2)}, ${fixed(g.fit.high, 2)}]` : 'b: too few sizes');
const dimLabel: Record<string, string> = { total_mb: 'base size (MB)', file_count: 'file count', change_bytes: 'change (bytes)' };

function fixedText(f: Record<string, number>): string {
  return Object.entries(f)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

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
  const pairs = cell.split(',').map((kv) => {
    const [k, v] = kv.split('=');
    return [k ?? '', Number(v)] as const;
  });
  const rank = (k: string): number => (dimOrder.indexOf(k) + dimOrder.length + 1) % (dimOrder.length + 1);
  return Object.fromEntries([...pairs].sort((p, q) => rank(p[0]) - rank(q[0])));
}

/**
 * What the source expected of an exponent, against what was measured: whether
 * the interval holds the expected value, said in words.
 */
function expectationText(g: Growth | undefined, expected: number, what: string): string | null {
  if (!g?.fit) return null;
  const holds = g.fit.low <= expected && expected <= g.fit.high;
  return `${what}: expected b ≈ ${expected}, measured ${slopeText(g)}; the interval ${holds ? 'holds' : 'excludes'} ${expected}.`;
}

/** The cell at the largest total_mb of the total_mb sweep (or the largest cell). */
function largestCell(a: CommitAnalysis): { cell: string; dims: Record<string, number> } | null {
  const sweep = a.growth.find((g) => g.dimension === 'total_mb');
  const candidates = a.ratios.filter((r) => !sweep || Object.entries(sweep.fixed).every(([k, v]) => r.dims[k] === v));
  const best = [...candidates].sort((p, q) => (q.dims['total_mb'] ?? 0) - (p.dims['total_mb'] ?? 0))[0];
  return best ? { cell: best.cell, dims: best.dims } : null;
}

export function growthSpec(a: CommitAnalysis, state: string, dimension = 'total_mb'): PlotSpec | null {
  const growth = a.growth.filter((g) => g.dimension === dimension && g.state === state);
  if (!growth.length) return null;
  const fixedDims = growth[0]!.fixed;
  const label = new Map(growth.map((g) => [g.method, `${g.method} (${slopeText(g)})`]));
  const values = a.cells
    .filter((c) => c.state === state && c.p50WallMs !== null && Object.entries(fixedDims).every(([k, v]) => c.dims[k] === v))
    .map((c) => ({ size: c.dims[dimension], seconds: c.p50WallMs! / 1000, method: label.get(c.method) ?? c.method }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: `${state} commit: P50 time against ${dimLabel[dimension] ?? dimension} (${fixedText(fixedDims)}), log-log`,
    width: 480,
    height: 300,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'size', type: 'quantitative', scale: { type: 'log' }, title: dimLabel[dimension] ?? dimension },
      y: { field: 'seconds', type: 'quantitative', scale: { type: 'log' }, title: 'docker commit P50 (s)' },
      color: {
        field: 'method',
        type: 'nominal',
        title: 'method (fitted exponent, 95% interval)',
        legend: { orient: 'bottom', labelLimit: 400, titleLimit: 400 },
      },
    },
  };
}

export function growthPlotFile(state: string, dimension: string): string {
  return `growth-${dimension}-${state}.svg`;
}

export function renderCommitCsvs(a: CommitAnalysis): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    'cells.csv',
    csv(
      [
        'cell',
        'total_mb',
        'file_count',
        'change_bytes',
        'method',
        'state',
        'n',
        'failed',
        'p50_wall_ms',
        'p50_engine_cpu_ms',
        'p50_disk_read_bytes',
        'p50_read_chars_bytes',
        'p50_layer_bytes',
      ],
      a.cells.map((c) => [
        c.cell,
        c.dims['total_mb']!,
        c.dims['file_count']!,
        c.dims['change_bytes']!,
        c.method,
        c.state,
        c.n,
        c.failed,
        c.p50WallMs,
        c.p50EngineCpuMs,
        c.p50DiskReadBytes,
        c.p50ReadCharsBytes,
        c.p50LayerBytes,
      ]),
    ),
  );
  files.set(
    'ratios.csv',
    csv(
      ['cell', 'total_mb', 'file_count', 'change_bytes', 'state', 'rounds', 'naive_p50_ms', 'native_p50_ms', 'ratio', 'low', 'high', 'naive_slower_rounds'],
      a.ratios.map((r) => [
        r.cell,
        r.dims['total_mb']!,
        r.dims['file_count']!,
        r.dims['change_bytes']!,
        r.state,
        r.comparison.rounds,
        r.medianA,
        r.medianB,
        r.comparison.observed,
        r.comparison.low,
        r.comparison.high,
        r.naiveSlowerRounds,
      ]),
    ),
  );
  files.set(
    'growth.csv',
    csv(
      ['dimension', 'fixed', 'method', 'state', 'slope', 'low', 'high', 'scale_ms', 'sizes', 'observations', 'resamples', 'confidence'],
      a.growth.map((g) => [
        g.dimension,
        fixedText(g.fixed),
        g.method,
        g.state,
        g.fit?.slope ?? null,
        g.fit?.low ?? null,
        g.fit?.high ?? null,
        g.fit?.scale ?? null,
        g.fit?.sizes ?? null,
        g.fit?.observations ?? null,
        g.fit?.resamples ?? null,
        g.fit?.confidence ?? null,
      ]),
    ),
  );
  files.set(
    'compression.csv',
    csv(
      ['method', 'n', 'failed', 'p50_wall_ms', 'p50_layer_bytes', 'p50_compressed_bytes', 'mb_per_s', 'note'],
      a.compression.map((c) => [c.method, c.n, c.failed, c.p50WallMs, c.p50LayerBytes, c.p50CompressedBytes, c.mbPerS, c.note]),
    ),
  );
  return files;
}

export function renderCommitReportMd(inp: CommitReportInputs, plots: readonly { file: string; title: string }[]): string {
  const a = inp.analysis;
  const L: string[] = [];
  const big = largestCell(a);
  const ratioAt = (state: string) => a.ratios.find((r) => big && r.cell === big.cell && r.state === state);
  const checksEqual = inp.checks.filter((c) => c.equal).length;
  L.push(`# ${inp.experiment.name}: container commit time, naive double walk vs native upperdir diff`, '');
  if (inp.experiment.question) L.push(`Question: ${inp.experiment.question}`, '');
  L.push('## Conclusions', '');
  if (big) {
    for (const state of a.states) {
      const r = ratioAt(state);
      if (!r) continue;
      const c = r.comparison;
      const detected = c.findings.detected
        ? c.low !== null && c.low > 1
          ? 'naive slower'
          : 'naive faster'
        : c.findings.sessionsDisagreeInSize
          ? 'not established: the sessions disagree in size'
          : 'no difference detected (interval contains 1)';
      const between = c.sessionLow !== null ? `; between sessions ${x2(c.sessionLow)}–${x2(c.sessionHigh)}` : '';
      L.push(
        `- **${state} commit** at the largest base (${fixedText(big.dims)}): naive P50 ${ms(r.medianA)} → native P50 ${ms(r.medianB)}; ratio of medians ${x2(c.observed)} (95% two-level interval ${x2(c.low)}–${x2(c.high)}${between}; ${c.sessions} × ${c.sessions ? Math.round(c.rounds / c.sessions) : 0} rounds, same side of 1 in ${c.sameDirection} of ${c.sessions} sessions; naive slower in ${r.naiveSlowerRounds}/${c.rounds} rounds): ${detected}.`,
      );
    }
  }
  for (const g of a.growth.filter((x) => x.dimension === 'total_mb' || x.dimension === 'file_count')) {
    L.push(
      `- Growth of the ${g.state} commit of the **${g.method}** engine with ${dimLabel[g.dimension]} (${fixedText(g.fixed)}): time ∝ size^b with ${slopeText(g)}.`,
    );
  }
  L.push(
    `- Change sets: ${checksEqual} of ${inp.checks.length} compared layers (cell × state) are equal between the two engines (sorted tar listings: paths, types, sizes, whiteouts).`,
  );
  const comp = [...a.compression].sort((p, q) => (p.p50WallMs ?? Infinity) - (q.p50WallMs ?? Infinity));
  if (comp.length)
    L.push(
      `- Compression of one committed layer: ${comp.map((c) => `${c.method} ${ms(c.p50WallMs)} → ${mb(c.p50CompressedBytes)}`).join('; ')} (P50; the data is random, so it does not compress).`,
    );
  L.push('', "### The source's expectation against this run", '');
  L.push(
    'The source expected the incremental commit to grow with the base for a fixed change under the naive diff (b ≈ 1) and not under the native diff (b ≈ 0). Measured, with the interval of each exponent:',
    '',
  );
  const growthOf = (dimension: string, method: string) => a.growth.find((g) => g.dimension === dimension && g.method === method && g.state === 'incremental');
  for (const line of [
    expectationText(growthOf('total_mb', 'naive'), 1, '- naive, incremental commit, against the base size'),
    expectationText(growthOf('total_mb', 'native'), 0, '- native, incremental commit, against the base size'),
    expectationText(growthOf('file_count', 'naive'), 1, '- naive, incremental commit, against the file count at a fixed total'),
    expectationText(growthOf('file_count', 'native'), 0, '- native, incremental commit, against the file count at a fixed total'),
  ])
    if (line) L.push(line);
  const widest = [...a.ratios.filter((r) => r.state === 'incremental' && r.comparison.observed !== null)].sort(
    (p, q) => q.comparison.observed! - p.comparison.observed!,
  )[0];
  if (widest)
    L.push(
      `- The largest incremental naive/native ratio of medians is ${x2(widest.comparison.observed)} (${x2(widest.comparison.low)}–${x2(widest.comparison.high)}) at ${fixedText(widest.dims)}: ${ms(widest.medianA)} against ${ms(widest.medianB)}.`,
    );
  const bySize = growthOf('total_mb', 'naive')?.fit;
  const byCount = growthOf('file_count', 'naive')?.fit;
  L.push('');
  if (bySize && byCount && bySize.high < 1 && byCount.low > 0)
    L.push(
      'Here the naive incremental commit grew with the number of files, not with the bytes of the base: the naive diff compares the two trees entry by entry, which fits that, but no profiler measured where its time went.',
      '',
    );

  L.push('## Design', '');
  L.push(
    '- Two private Docker engines started from the same Debian `dockerd` binary, each with its own data-root, exec-root, pidfile and unix socket, `--bridge=none --iptables=false --ip6tables=false`; every container runs with `--network none`.',
  );
  L.push(
    '- **naive**: started while the kernel\'s overlay `redirect_dir` parameter is on; Docker\'s overlay2 driver then reports "Native Overlay Diff: false" and computes a commit\'s diff by walking the lower and the merged trees (archive.ChangesDirs). The setting is restored as soon as the engine has answered `docker info`. **native**: started with it off; "Native Overlay Diff: true"; the diff is a tar of the upperdir. Both checked in `docker info` before sampling.',
  );
  L.push(
    "- **initial**: a container from the base image writes F files of S/F bytes of random data under /random_files (untimed; the host then syncs the engine's filesystem); measured: `docker commit`. **incremental**: a container from that committed image writes one file of `change_bytes` random bytes; measured: `docker commit`.",
  );
  L.push(
    "- Per commit: wall time (the C launch helper, CLOCK_MONOTONIC from spawning the docker CLI to its exit), the engine's CPU time (utime+stime of dockerd and its live descendants plus their reaped children, /proc before and after), bytes read (read_bytes = from the block device, rchar = through read calls, page cache included, /proc/PID/io), the layer size (image size minus parent size).",
  );
  L.push(
    `- Cells: design.matrix in \`${inp.pipelineFileName}\`; ${inp.session.sessions ?? 1} independent session${(inp.session.sessions ?? 1) === 1 ? '' : 's'} (each starts both engines afresh) × ${inp.session.rounds ?? '?'} formal rounds (${inp.session.warmupRounds ?? 0} warmup ${inp.session.warmupRounds === 1 ? 'round' : 'rounds'} of the smallest cell excluded per session); in each round every cell runs on both engines, cells in a seeded random order and engines in a ${inp.session.order ?? 'random'} order (seed \`${inp.session.seed ?? ''}\`), each measured commit after an untimed settle. Base image: \`${inp.session.image ?? ''}\`.`,
  );
  L.push(
    `- Statistics: P50 is the type-7 median. The ratio interval is the two-level bootstrap (sessions, then complete rounds within them; ${a.bootstrap.resamples} resamples, ${a.bootstrap.confidence * 100}%), and with 3 or more sessions a Student t interval over the log per-session ratios; a ratio is called different from 1 only when both exclude 1. The growth fit is least squares of log(time) on log(size) over every observation; its interval resamples observations within each size.`,
    '',
  );

  L.push('## Data and analysis', '', "### Before/after (the source's table)", '');
  L.push('| cell | commit | naive P50 | native P50 | naive/native (95% interval) | rounds |', '|---|---|---:|---:|---:|---:|');
  for (const r of byDims(a.ratios))
    L.push(
      `| ${fixedText(r.dims)} | ${r.state} | ${ms(r.medianA)} | ${ms(r.medianB)} | ${x2(r.comparison.observed)} (${x2(r.comparison.low)}–${x2(r.comparison.high)}) | ${r.comparison.rounds} |`,
    );
  L.push('', '### Growth', '');
  for (const p of plots) L.push(`![${p.title}](${p.file})`, '');
  L.push('| sweep | fixed | method | commit | exponent b (95% interval) | sizes | observations |', '|---|---|---|---|---|---:|---:|');
  for (const g of a.growth)
    L.push(
      `| ${g.dimension} | ${fixedText(g.fixed)} | ${g.method} | ${g.state} | ${g.fit ? `${fixed(g.fit.slope, 2)} (${fixed(g.fit.low, 2)}, ${fixed(g.fit.high, 2)})` : '–'} | ${g.fit?.sizes ?? '–'} | ${g.fit?.observations ?? '–'} |`,
    );
  L.push('', '### Engine CPU and bytes read (P50 per commit)', '');
  L.push('| cell | commit | method | wall | engine CPU | read (disk) | read (calls) | layer |', '|---|---|---|---:|---:|---:|---:|---:|');
  for (const c of byDims(a.cells))
    L.push(
      `| ${fixedText(c.dims)} | ${c.state} | ${c.method} | ${ms(c.p50WallMs)} | ${ms(c.p50EngineCpuMs)} | ${mb(c.p50DiskReadBytes)} | ${mb(c.p50ReadCharsBytes)} | ${mb(c.p50LayerBytes)} |`,
    );
  L.push('', "### Compression of the committed layer (the source's next bottleneck)", '');
  L.push('| method | n | P50 time | layer | compressed | MB/s | note |', '|---|---:|---:|---:|---:|---:|---|');
  for (const c of a.compression)
    L.push(
      `| ${c.method} | ${c.n} | ${ms(c.p50WallMs)} | ${mb(c.p50LayerBytes)} | ${mb(c.p50CompressedBytes)} | ${c.mbPerS === null ? '–' : fixed(c.mbPerS, 0)} | ${c.note} |`,
    );
  L.push('', '### Change-set checks', '');
  for (const c of byDims(inp.checks.map((x) => ({ ...x, dims: dimsOfKey(x.cell) }))))
    L.push(`- ${fixedText(c.dims)} ${c.state}: ${c.equal ? `equal (${c.entries} entries)` : `DIFFERENT: ${c.differences.slice(0, 3).join('; ')}`}`);
  for (const note of inp.notes ?? []) L.push('', note.trim());
  L.push('', '## What is not established', '');
  L.push(
    "- containerd itself was not measured. Docker 20.10's overlay2 driver stands in for containerd's diff service: the same idea (the naive method walks the lower and the merged trees and compares them; the native method reads the changes from the overlay upperdir), different code (Docker's archive.ChangesDirs and its upperdir tar, not containerd's doubleWalkDiff and continuity's DiffDirChanges with DiffSourceOverlayFS).",
  );
  L.push(
    `- Sizes: the source committed 10 GB (100 files of 100 MB); this run goes up to total_mb=${Math.max(...a.cells.map((c) => c.dims['total_mb'] ?? 0))} on a ${inp.session.cpus ?? '?'}-CPU machine, so the source's absolute times (846 s, 39 s, 0.46 s) are not expected; the ratios and exponents are the comparable results.`,
  );
  L.push(
    "- The measured time is that of `docker commit` as a whole (the CLI, the diff, extracting it into the new layer, the image metadata), not of the diff function alone; no profiler was attached. Docker's naive path also mounts the container's layer and its parent to walk them (and computes the layer size by a second walk), so part of the naive time is mount work, not the walk itself.",
  );
  L.push(
    '- While the naive engine starts (a few seconds), redirect_dir is on for the whole machine: an engine started by another program in that window would get the naive diff too. benchgraph runs take turns through a lock file; other programs are not covered.',
  );
  L.push(
    "- The compression figures are for random data (incompressible, as in the source's dd from /dev/urandom); real workspaces compress. The skopeo time includes exporting the image from the engine.",
  );
  L.push(
    '- The page cache was not dropped between commits (it would disturb other users of the machine): bytes read from disk are mostly zero; bytes read through calls show the work.',
    '',
  );
  L.push(
    '## Downloads',
    '',
    '- cells.csv, ratios.csv, growth.csv, compression.csv (this folder); samples.csv holds every measured commit (and compression launch), one row each, in the sample format of every experiment.',
    '',
  );
  L.push('## Provenance', '');
  if (inp.session.durationS !== undefined)
    L.push(
      `- Sampling (commit-sample, every session of its last attempt): ${fixed(inp.session.durationS / 60, 1)} min (the pin stage and earlier attempts of a resumed run not included).`,
    );
  if (inp.pins?.kernel) L.push(`- Kernel ${inp.pins.kernel}, Node ${inp.pins.node ?? ''}.`);
  for (const b of (inp.pins?.binaries ?? []).filter((x) => ['dockerd', 'docker', 'skopeo', 'docker-registry'].includes(x.name)))
    L.push(`- ${b.name} ${b.version ?? ''} sha256 ${b.sha256 ?? '-'}`);
  for (const s of inp.stages) L.push(`- stage \`${s.id}\` (${s.kind}): ${s.outputDigest}`);
  if (inp.samplesSha256) L.push(`- samples.duckdb sha256 ${inp.samplesSha256}`);
  L.push('', 'See REPRODUCE.md.', '');
  return L.join('\n');
}

export function renderCommitReproduce(inp: CommitReportInputs): string {
  const f = inp.pipelineFileName;
  return [
    `# Reproducing "${inp.experiment.name}"`,
    '',
    'As root on Debian 12, in a clone of benchgraph:',
    '',
    '```',
    './setup.sh',
    `./bin/pipeline.js run -f ${f}`,
    `./bin/pipeline.js audit -f ${f}`,
    '```',
    '',
    'The run needs root: it starts two private dockerd engines and sets /sys/module/overlay/parameters/redirect_dir for the moment the naive engine starts (restored at once, on exit, on SIGINT/SIGTERM, and at the next start after a SIGKILL). Re-analyse only: `--set analysis.bootstrap.resamples=5000` reruns commit-analyze and commit-report.',
    '',
    '## Stages and output digests',
    '',
    ...inp.stages.map((s) => `- \`${s.id}\` (${s.kind}): ${s.outputDigest}`),
    '',
  ].join('\n');
}
