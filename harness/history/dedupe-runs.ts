// One run counts once in a series, however it was reached (issue 28): an
// archived run given through its runs/ folder and again through the published
// folder whose statistics.csv is the same file, or a folder named twice. Runs
// are the same when their run digests are equal, or, for a folder holding no
// archived run, when they are the same folder. The first occurrence is kept,
// in the order given. Pure.
import { resolve } from 'node:path';
import type { HistoryRun } from './history-run.js';

export interface Deduped {
  runs: HistoryRun[];
  /** Each run left out, with the run it repeats. */
  dropped: { run: HistoryRun; sameAs: HistoryRun }[];
}

export function dedupeRuns(runs: readonly HistoryRun[]): Deduped {
  const kept = new Map<string, HistoryRun>();
  const dropped: Deduped['dropped'] = [];
  for (const r of runs) {
    const identity = r.digest ?? `folder ${resolve(r.folder)}`;
    const first = kept.get(identity);
    if (first) dropped.push({ run: r, sameAs: first });
    else kept.set(identity, r);
  }
  return { runs: [...kept.values()], dropped };
}

/** `run 2026-12-02-2db8d3807dc1 given twice (reports/lazy-startup/runs/… and reports/lazy-startup): counted once` */
export function droppedLine(d: Deduped['dropped'][number]): string {
  return `run ${d.sameAs.id} given twice (${d.sameAs.folder} and ${d.run.folder}): counted once`;
}
