// Pure: the analysis of the commit-diff experiment from its raw rows. Per cell,
// method and state: counts and medians (P50, type 7). Per cell and state: the
// ratio of medians naive/native through the one comparison statistic
// (stats/paired-comparison.ts: two-level and between-session intervals, k of
// K sessions, named findings).
// Per sweep (cells that differ in one dimension only), method and state: the
// growth fit log(time) = a + b·log(size) with a bootstrap interval for b,
// beside the straight line t = floor + cost·n with intervals, and which of the
// two misses the observations less on the log scale.
// Per cell and state, also the engine CPU ratio naive/native, the same way.
// The wall-time interval is drawn again with two other seeds: the digits it is
// printed with are those the seeds agree on.
import { median } from '../stats/quantile.js';
import { pairedComparison, type ComparisonResult } from '../stats/paired-comparison.js';
import { judgedComparison, type JudgedComparison } from '../analysis/direction-rule.js';
import { pairSessions } from '../stats/two-level-bootstrap.js';
import { endpointSpread, intervalDigits, seedCheckSeeds } from '../stats/seed-spread.js';
import { logLogFit, type GrowthFit } from '../stats/log-log-fit.js';
import { floorCostFit, logResidualRms, type FloorCostFit } from '../stats/floor-cost-fit.js';
import { floorPowerFit, type FloorPowerFit } from '../stats/floor-power-fit.js';
import { COMMIT_DIMENSIONS } from './commit-cell.js';
import { judge, type Judgement, type Looks } from '../comparison/judge.js';
import { defaultPracticalMargin, type PracticalMargin } from '../config/practical-margin.js';
import type { CommitPosition } from './commit-position.js';
import type { CommitRowData, CompressionRowData } from './commit-row-data.js';

export type { CommitRowData, CompressionRowData } from './commit-row-data.js';

export interface CellStat {
  cell: string;
  dims: Record<string, number>;
  method: string;
  state: string;
  n: number;
  failed: number;
  p50WallMs: number | null;
  p50EngineCpuMs: number | null;
  p50EngineUserCpuMs: number | null;
  p50EngineSysCpuMs: number | null;
  p50EngineSyscalls: number | null;
  p50DiskReadBytes: number | null;
  p50ReadCharsBytes: number | null;
  p50LayerBytes: number | null;
}

export interface CellRatio {
  cell: string;
  dims: Record<string, number>;
  state: string;
  /** naive / native: the ratio of medians over every session with its two-level and between-session intervals, per-session ratios and findings, its direction judged by analysis/direction-rule.ts. */
  comparison: JudgedComparison;
  medianA: number | null;
  medianB: number | null;
  /** Rounds in which naive took longer than native. */
  naiveSlowerRounds: number;
  /** Sessions whose own ratio of medians is above 1 (naive slower), of `comparison.sessions`. */
  naiveSlowerSessions: number;
  /** The verdict of naive / native under analysis.practical, by the rule the sampling used (comparison/judge.ts). */
  judgement: Judgement;
  /** The engine CPU time naive / native, the same statistic; null without CPU figures. */
  engineCpu: ComparisonResult | null;
  cpuMedianA: number | null;
  cpuMedianB: number | null;
  /** How far the two-level interval's endpoints move when the bootstrap seed changes (seedCheckSeeds), the larger of the two; null without an interval. */
  seedSpread: number | null;
  /** Decimals the interval is printed with: the most (2, else 1) whose half-unit covers seedSpread; at 1 decimal a larger spread is printed beside the interval. */
  intervalDigits: number;
}

export interface Growth {
  dimension: string;
  fixed: Record<string, number>;
  method: string;
  state: string;
  fit: GrowthFit | null;
  /** The straight line t = floor + cost·size (ms, ms per unit of size). */
  line: FloorCostFit | null;
  /** t = floor + c·n^k with an interval on k and the sizes above the floor (stats/floor-power-fit.ts); null below 3 sizes. */
  floorPower: FloorPowerFit | null;
  /** Root mean square log residual of the power law and of the line, over every observation. */
  powerLogRms: number | null;
  lineLogRms: number | null;
}

export interface CompressionStat {
  method: string;
  n: number;
  failed: number;
  p50WallMs: number | null;
  p50LayerBytes: number | null;
  p50CompressedBytes: number | null;
  /** Layer bytes per second of wall time, at the medians. */
  mbPerS: number | null;
  note: string;
}

export interface CommitAnalysis {
  /** Per cell, state and method: second commit of the cell in its round over first (commit-position.ts); absent in analyses before it. */
  positions?: CommitPosition[];
  methods: string[];
  states: string[];
  cells: CellStat[];
  ratios: CellRatio[];
  growth: Growth[];
  compression: CompressionStat[];
  bootstrap: { resamples: number; confidence: number; seed: string };
}

const med = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? median(v) : null;
};

/** Sweeps: for each dimension, groups of cells equal in every other dimension with >= 2 values of it. */
export function sweeps(
  cells: readonly { cell: string; dims: Record<string, number> }[],
): { dimension: string; fixed: Record<string, number>; cells: string[] }[] {
  const out: { dimension: string; fixed: Record<string, number>; cells: string[] }[] = [];
  const unique = [...new Map(cells.map((c) => [c.cell, c])).values()];
  for (const d of COMMIT_DIMENSIONS) {
    const groups = new Map<string, typeof unique>();
    for (const c of unique) {
      const key = COMMIT_DIMENSIONS.filter((o) => o !== d)
        .map((o) => `${o}=${c.dims[o]}`)
        .join(',');
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    for (const g of groups.values()) {
      if (new Set(g.map((c) => c.dims[d])).size < 2) continue;
      const fixed = Object.fromEntries(COMMIT_DIMENSIONS.filter((o) => o !== d).map((o) => [o, g[0]!.dims[o]!]));
      out.push({ dimension: d, fixed, cells: g.map((c) => c.cell) });
    }
  }
  return out;
}

/** How the ratios are judged: the practical margin, and the looks of a run that sampled until decided (null: a fixed design). */
export interface CommitJudging {
  margin: PracticalMargin;
  looks: Looks | null;
}

export function analyzeCommits(
  rows: readonly CommitRowData[],
  compression: readonly CompressionRowData[],
  opts: { resamples: number; confidence: number; seed: string },
  judging: CommitJudging = { margin: defaultPracticalMargin, looks: null },
): CommitAnalysis {
  const formal = rows.filter((r) => r.phase === 'formal');
  const methods = [...new Set(formal.map((r) => r.method))].sort();
  const states = ['initial', 'incremental'].filter((s) => formal.some((r) => r.state === s));
  const cellDims = new Map(formal.map((r) => [r.cell, r.dims]));
  const cellIds = [...cellDims.keys()];
  const cells: CellStat[] = [];
  const ratios: CellRatio[] = [];
  for (const cell of cellIds) {
    for (const state of states) {
      for (const method of methods) {
        const rs = formal.filter((r) => r.cell === cell && r.state === state && r.method === method);
        const ok = rs.filter((r) => r.ok);
        cells.push({
          cell,
          dims: cellDims.get(cell)!,
          method,
          state,
          n: ok.length,
          failed: rs.length - ok.length,
          p50WallMs: med(ok.map((r) => r.wallMs)),
          p50EngineCpuMs: med(ok.map((r) => r.engineCpuMs)),
          p50EngineUserCpuMs: med(ok.map((r) => r.engineUserCpuMs ?? null)),
          p50EngineSysCpuMs: med(ok.map((r) => r.engineSysCpuMs ?? null)),
          p50EngineSyscalls: med(ok.map((r) => r.engineSyscalls ?? null)),
          p50DiskReadBytes: med(ok.map((r) => r.diskReadBytes)),
          p50ReadCharsBytes: med(ok.map((r) => r.readCharsBytes)),
          p50LayerBytes: med(ok.map((r) => r.layerBytes)),
        });
      }
      const wallRows = formal
        .filter((r) => r.cell === cell && r.state === state && r.ok && r.wallMs !== null)
        .map((r) => ({ session: r.session, round: r.round, path: r.method, value: r.wallMs! }));
      const sessions = pairSessions(wallRows, 'naive', 'native');
      const c = judgedComparison(sessions, 'ratio', { ...opts, seed: `${opts.seed}/${cell}/${state}` });
      const redraws =
        c.low === null ? [] : seedCheckSeeds.map((s) => pairedComparison(sessions, 'ratio', { ...opts, seed: `${opts.seed}/${cell}/${state}/${s}` }));
      const seedSpread = endpointSpread(c, redraws);
      const rounds = sessions.flatMap((s) => s.rounds).filter((r) => r.a.length && r.b.length);
      const cpuRows = formal
        .filter((r) => r.cell === cell && r.state === state && r.ok && r.engineCpuMs !== null)
        .map((r) => ({ session: r.session, round: r.round, path: r.method, value: r.engineCpuMs! }));
      const cpuSessions = pairSessions(cpuRows, 'naive', 'native');
      const cpu = cpuRows.length ? pairedComparison(cpuSessions, 'ratio', { ...opts, seed: `${opts.seed}/${cell}/${state}/cpu` }) : null;
      const medianB = med(wallRows.filter((r) => r.path === 'native').map((r) => r.value));
      ratios.push({
        cell,
        dims: cellDims.get(cell)!,
        state,
        comparison: c,
        judgement: judge(c, sessions, medianB, judging.margin, judging.looks),
        medianA: med(wallRows.filter((r) => r.path === 'naive').map((r) => r.value)),
        medianB,
        naiveSlowerRounds: rounds.filter((r) => median(r.a) > median(r.b)).length,
        naiveSlowerSessions: c.perSession.filter((s) => s.observed > 1).length,
        engineCpu: cpu && cpu.observed !== null ? cpu : null,
        cpuMedianA: med(cpuRows.filter((r) => r.path === 'naive').map((r) => r.value)),
        cpuMedianB: med(cpuRows.filter((r) => r.path === 'native').map((r) => r.value)),
        seedSpread,
        intervalDigits: intervalDigits(seedSpread),
      });
    }
  }
  const growth: Growth[] = [];
  for (const sw of sweeps(formal)) {
    for (const method of methods) {
      for (const state of states) {
        const bySize = new Map<number, number[]>();
        for (const r of formal) {
          if (!sw.cells.includes(r.cell) || r.method !== method || r.state !== state || !r.ok || r.wallMs === null) continue;
          const x = r.dims[sw.dimension]!;
          bySize.set(x, [...(bySize.get(x) ?? []), r.wallMs]);
        }
        const fit = logLogFit(bySize, { ...opts, seed: `${opts.seed}/${sw.dimension}/${method}/${state}` });
        const line = floorCostFit(bySize, { ...opts, seed: `${opts.seed}/${sw.dimension}/${method}/${state}/line` });
        growth.push({
          dimension: sw.dimension,
          fixed: sw.fixed,
          method,
          state,
          fit,
          line,
          floorPower: floorPowerFit(bySize, { ...opts, seed: `${opts.seed}/${sw.dimension}/${method}/${state}/floor-power` }),
          powerLogRms: fit ? logResidualRms(bySize, (n) => fit.scale * n ** fit.slope) : null,
          lineLogRms: line ? logResidualRms(bySize, (n) => line.floor + line.cost * n) : null,
        });
      }
    }
  }
  const compressionStats: CompressionStat[] = [...new Set(compression.map((c) => c.method))].map((method) => {
    const rs = compression.filter((c) => c.method === method);
    const ok = rs.filter((c) => c.ok);
    const wall = med(ok.map((c) => c.wallMs));
    const layer = med(ok.map((c) => c.layerBytes));
    return {
      method,
      n: ok.length,
      failed: rs.length - ok.length,
      p50WallMs: wall,
      p50LayerBytes: layer,
      p50CompressedBytes: med(ok.map((c) => c.compressedBytes)),
      mbPerS: wall && layer ? layer / 1e6 / (wall / 1000) : null,
      note: rs[0]?.note ?? '',
    };
  });
  return { methods, states, cells, ratios, growth, compression: compressionStats, bootstrap: opts };
}
