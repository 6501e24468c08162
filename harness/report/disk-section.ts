// The default experiment's disk section: the kit's probe table
// (publish/disk-section.ts) with each cold full-pull cell's session medians
// beside the sessions' disk figures. Pure.
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { fixed } from '../publish/format-number.js';
import { diskProbeBlocks } from '../publish/disk-section.js';
import type { Block } from '../document/document-model.js';

/**
 * Cold full-pull cells: cold Ready cells whose median content bytes are at
 * least half the largest cold median of their cohort (the paths that fetch
 * and unpack the whole image), in the given path order.
 */
export function coldFullPullCells(a: AnalysisResult, cohorts: string[], paths: string[]): CellStatistics[] {
  const out: CellStatistics[] = [];
  for (const cohort of cohorts) {
    const cold = a.bytes.filter((b) => b.cohort === cohort && b.state === 'cold' && b.contentBytes.median !== null);
    const most = Math.max(0, ...cold.map((b) => b.contentBytes.median!));
    if (!(most > 0)) continue;
    for (const path of paths) {
      const b = cold.find((x) => x.path === path);
      const c = a.cells.find((x) => x.cohort === cohort && x.path === path && x.state === 'cold' && x.metric === 'ready');
      if (b && c && b.contentBytes.median! >= most / 2) out.push(c);
    }
  }
  return out;
}

export function diskSection(a: AnalysisResult, records: readonly SessionRecord[] | null, cohorts: string[], paths: string[], msDecimals: number): Block[] {
  const cells = coldFullPullCells(a, cohorts, paths);
  return diskProbeBlocks(
    records,
    cells.map((c) => ({
      header: `${c.cohort} ${c.path} cold`,
      valueOf: (session: number) => {
        const s = c.sessions.find((x) => x.session === session);
        return s ? fixed(s.p50Ms, msDecimals) : '-';
      },
    })),
    'Beside them, the session median Ready (ms) of each cold full-pull cell (cold cells that received at least half the largest cold content of their cohort).',
  );
}
