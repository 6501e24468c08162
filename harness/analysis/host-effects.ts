// Pure: how another host of the replicates moves each path, against this
// run's host (issue 28 item 2: "a path-specific host effect (crun slower,
// gVisor faster) is shown as such").
//
// Per other host and Ready cell: the ratio of the host's median (over its
// runs' launches) to this run's host's. The host's common factor is the
// median over cells of those ratios (in ln). Per path, its effect beyond that
// factor is the mean over its cells of ln(ratio) − ln(common). A path's effect
// is path-specific when it is at least PATH_SPECIFIC_LOG away from the common
// factor (twice the between-run sd of a cell on one host kind,
// stats/host-kind-drift.ts CELL_LOG_SD: more than runs on one machine move a
// cell) and every one of its cells lies on the same side of the common factor.
import { median } from '../stats/quantile.js';
import { CELL_LOG_SD } from '../stats/host-kind-drift.js';
import type { ReplicateRun } from './replicate-runs.js';

export const PATH_SPECIFIC_LOG = 2 * CELL_LOG_SD;

export interface PathHostEffect {
  path: string;
  /** exp(mean over the path's cells of ln(cell ratio / common)). */
  beyondCommon: number;
  /** Smallest and largest cell ratio of the path (host over this run's host). */
  lowRatio: number;
  highRatio: number;
  cells: number;
  pathSpecific: boolean;
}

export interface HostEffect {
  /** The other host's fingerprint digest, and this run's (the reference). */
  host: string;
  reference: string;
  /** Median over the Ready cells of (host median / reference median). */
  common: number;
  cells: number;
  paths: PathHostEffect[];
}

/** One entry per host other than the first run's; empty with one host. */
export function hostEffects(runs: readonly ReplicateRun[], metric: 'ready' | 'completion' = 'ready'): HostEffect[] {
  if (runs.length === 0) return [];
  const reference = runs[0]!.host;
  const hosts = [...new Set(runs.map((r) => r.host))].filter((h) => h !== reference);
  if (hosts.length === 0) return [];
  const valuesOf = (host: string): Map<string, number[]> => {
    const out = new Map<string, number[]>();
    for (const run of runs) {
      if (run.host !== host) continue;
      for (const r of run.rows) {
        const v = metric === 'ready' ? r.readyMs : r.completionMs;
        if (v === null || !(v > 0)) continue;
        const k = [r.cohort, r.path, r.state].join('\u0000');
        const list = out.get(k) ?? [];
        list.push(v);
        out.set(k, list);
      }
    }
    return out;
  };
  const ref = valuesOf(reference);
  return hosts.map((host): HostEffect => {
    const other = valuesOf(host);
    const ratios = [...other].filter(([k]) => ref.has(k)).map(([k, v]) => ({ path: k.split('\u0000')[1]!, log: Math.log(median(v) / median(ref.get(k)!)) }));
    const common = ratios.length ? median(ratios.map((r) => r.log)) : 0;
    const paths = [...new Set(ratios.map((r) => r.path))].sort().map((path): PathHostEffect => {
      const own = ratios.filter((r) => r.path === path).map((r) => r.log);
      const beyond = own.reduce((a, x) => a + x - common, 0) / own.length;
      const sameSide = own.every((x) => Math.sign(x - common) === Math.sign(beyond));
      return {
        path,
        beyondCommon: Math.exp(beyond),
        lowRatio: Math.exp(Math.min(...own)),
        highRatio: Math.exp(Math.max(...own)),
        cells: own.length,
        pathSpecific: Math.abs(beyond) >= PATH_SPECIFIC_LOG && sameSide,
      };
    });
    return { host, reference, common: Math.exp(common), cells: ratios.length, paths };
  });
}
