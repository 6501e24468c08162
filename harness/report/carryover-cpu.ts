// Where a predecessor's extra time goes: for each cell flagged for its
// previous path, the median user and system CPU time of the launch's own
// process tree after each previous path, from the sample rows. Only cells
// whose launches do their own work are shown (median CPU at least a quarter
// of median Ready): docker's pull runs in the engine, so its launch's CPU
// says nothing. Pure.
import type { CellStatistics } from '../analysis/analysis-result.js';
import type { SampleRow } from '../db/sample-row.js';
import { median } from '../stats/quantile.js';

export interface PredecessorCpu {
  previous: string | null;
  n: number;
  userMs: number;
  sysMs: number;
}

export interface CarryoverCpuRow {
  cohort: string;
  path: string;
  state: string;
  byPredecessor: PredecessorCpu[];
  /** The previous paths after which Ready was fastest and slowest (the predecessor effect's pair). */
  fastAfter: string | null;
  slowAfter: string | null;
}

/** Share of median Ready that the launch's own CPU must reach for its CPU to be shown. */
export const OWN_WORK_SHARE = 0.25;

export function carryoverCpu(cells: readonly CellStatistics[], launches: readonly SampleRow[]): CarryoverCpuRow[] {
  const out: CarryoverCpuRow[] = [];
  for (const c of cells) {
    if (c.metric !== 'ready' || !c.predecessor?.flagged) continue;
    const mine = launches.filter(
      (r) =>
        r['phase'] === 'formal' &&
        r['ok'] === true &&
        r['cohort'] === c.cohort &&
        r['path'] === c.path &&
        r['state'] === c.state &&
        typeof r['user_cpu_ms'] === 'number' &&
        typeof r['sys_cpu_ms'] === 'number' &&
        typeof r['ready_ms'] === 'number',
    );
    if (mine.length === 0) continue;
    const cpu = median(mine.map((r) => (r['user_cpu_ms'] as number) + (r['sys_cpu_ms'] as number)));
    if (cpu < OWN_WORK_SHARE * median(mine.map((r) => r['ready_ms'] as number))) continue;
    const groups = new Map<string | null, SampleRow[]>();
    for (const r of mine) {
      const p = typeof r['previous_path'] === 'string' ? (r['previous_path'] as string) : null;
      groups.set(p, [...(groups.get(p) ?? []), r]);
    }
    const byPredecessor = [...groups.entries()]
      .sort(([x], [y]) => (x === null ? -1 : y === null ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([previous, rows]) => ({
        previous,
        n: rows.length,
        userMs: median(rows.map((r) => r['user_cpu_ms'] as number)),
        sysMs: median(rows.map((r) => r['sys_cpu_ms'] as number)),
      }));
    out.push({ cohort: c.cohort, path: c.path, state: c.state, byPredecessor, fastAfter: c.predecessor.fastAfter, slowAfter: c.predecessor.slowAfter });
  }
  return out;
}
