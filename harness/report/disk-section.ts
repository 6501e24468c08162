// The default experiment's disk section: the kit's probe table
// (publish/disk-section.ts) with the session medians of each cold cell whose
// path declares a full pull (paths.<id>.cold_check: full-pull) beside the
// sessions' disk figures. Pure.
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { fixed } from '../publish/format-number.js';
import { diskProbeBlocks } from '../publish/disk-section.js';
import type { Block } from '../document/document-model.js';

/**
 * Cold full-pull cells: the cold Ready cells of the paths that declare
 * cold_check full-pull (their cold launches must receive the image's whole
 * layers and config), in the given cohort and path order. A path is labelled
 * by what it declares, never by how many bytes it happened to read: an
 * on-demand path that read most of an image is still no full pull.
 */
export function coldFullPullCells(a: AnalysisResult, cohorts: string[], paths: string[], fullPull: (path: string) => boolean): CellStatistics[] {
  const out: CellStatistics[] = [];
  for (const cohort of cohorts)
    for (const path of paths.filter(fullPull)) {
      const c = a.cells.find((x) => x.cohort === cohort && x.path === path && x.state === 'cold' && x.metric === 'ready');
      if (c) out.push(c);
    }
  return out;
}

export function diskSection(
  a: AnalysisResult,
  records: readonly SessionRecord[] | null,
  cohorts: string[],
  paths: string[],
  msDecimals: number,
  fullPull: (path: string) => boolean,
): Block[] {
  const cells = coldFullPullCells(a, cohorts, paths, fullPull);
  return diskProbeBlocks(
    records,
    cells.map((c) => ({
      header: `${c.cohort} ${c.path} cold`,
      valueOf: (session: number) => {
        const s = c.sessions.find((x) => x.session === session);
        return s ? fixed(s.p50Ms, msDecimals) : '-';
      },
    })),
    `Beside them, the session median Ready (ms) of each cold cell of a path that declares a full pull (paths.<id>.cold_check: full-pull): ${[...new Set(cells.map((c) => c.path))].join(', ')}.`,
  );
}
