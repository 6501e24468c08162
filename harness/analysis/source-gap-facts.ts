// Pure: the measured facts a reader needs to see why an on-demand path saves
// what it saves, as named findings of analysis.json (`sourceGap`). For every
// cold cell that counted content bytes below the complete transfer of its
// cohort (a path that reads part of the image), the bytes it read, the share
// of the complete path's bytes (the first configured comparison partner that
// transferred the cohort's largest count), its bytes over the whole Ready P50
// (a lower bound of the read rate, not a measured throughput: the reads fill
// only part of that time), and the share of its cold Ready P50 that its warm
// Ready P50 does not spend (a share of time, not of bytes: what the reads and
// the first start cost). For every cold cell whose path prints phase
// marks, its spans in order with their share of the Ready P50 (what the
// summary shows beside the differences: where each side's cold time goes).
// No wording here: harness/report/source-gap-phrases.ts words these facts.
import type { AnalysisResult } from './analysis-result.js';

export interface OnDemandReadFact {
  /** `<cohort> <path> <state> reads` */
  id: string;
  cohort: string;
  path: string;
  state: string;
  /** Median content bytes of the cell's valid launches. */
  contentBytes: number;
  /** The path that transferred the cohort's complete image in this state, and its median content bytes. */
  fullPath: string;
  fullContentBytes: number;
  /** contentBytes / fullContentBytes. */
  shareOfFull: number;
  readyP50Ms: number;
  /** contentBytes over the whole Ready P50, bytes per second: a lower bound of the read rate (the reads fill only part of Ready), not a throughput. */
  bytesPerS: number;
  /** The same path's warm Ready P50, and by what share of the cold Ready P50 it is shorter ((cold - warm) / cold: a share of time, not of bytes); null without a warm cell. */
  warmReadyP50Ms: number | null;
  coldOnlyShare: number | null;
}

export interface ColdSpansFact {
  /** `<cohort> <path> <state> spans` */
  id: string;
  cohort: string;
  path: string;
  state: string;
  readyP50Ms: number;
  /** The cell's spans in order (the last is `to Ready`), each median and its share of the Ready P50. */
  spans: { name: string; p50Ms: number; share: number }[];
}

export interface SourceGapFacts {
  reads: OnDemandReadFact[];
  coldSpans: ColdSpansFact[];
}

/** The analysis.json with its source-gap findings (written by stages/analyze.ts). */
export type AnalysisWithSourceGap = AnalysisResult & { sourceGap?: SourceGapFacts };

const coldState = 'cold';

export function sourceGapFacts(a: AnalysisResult): SourceGapFacts {
  const ready = (cohort: string, path: string, state: string): number | null =>
    a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === 'ready')?.p50Ms ?? null;
  const reads: OnDemandReadFact[] = [];
  const cohorts = [...new Set(a.cells.map((c) => c.cohort))];
  for (const cohort of cohorts) {
    const counted = a.bytes.filter((b) => b.cohort === cohort && b.state === coldState && b.contentBytes.n > 0 && (b.contentBytes.median ?? 0) > 0);
    if (counted.length < 2) continue;
    const most = Math.max(...counted.map((b) => b.contentBytes.median!));
    for (const b of counted) {
      const bytes = b.contentBytes.median!;
      if (bytes >= most) continue;
      // the complete side: a configured partner of this path with the cohort's largest count, else any such path
      const partners = a.rules.comparisons.filter((c) => !c.factor && c.b === b.path).map((c) => c.a);
      const complete = counted.filter((x) => x.contentBytes.median === most);
      const full = partners.map((p) => complete.find((x) => x.path === p)).find((x) => x !== undefined) ?? complete[0]!;
      const cold = ready(cohort, b.path, coldState);
      if (cold === null || cold <= 0) continue;
      const warm = ready(cohort, b.path, 'warm');
      reads.push({
        id: `${cohort} ${b.path} ${coldState} reads`,
        cohort,
        path: b.path,
        state: coldState,
        contentBytes: bytes,
        fullPath: full.path,
        fullContentBytes: most,
        shareOfFull: bytes / most,
        readyP50Ms: cold,
        bytesPerS: bytes / (cold / 1000),
        warmReadyP50Ms: warm,
        coldOnlyShare: warm === null ? null : (cold - warm) / cold,
      });
    }
  }
  const coldSpans: ColdSpansFact[] = [];
  const cells = new Map<string, { cohort: string; path: string }>();
  for (const s of a.spans ?? []) if (s.state === coldState) cells.set(`${s.cohort}\u0000${s.path}`, { cohort: s.cohort, path: s.path });
  for (const { cohort, path } of cells.values()) {
    const r = ready(cohort, path, coldState);
    const spans = (a.spans ?? [])
      .filter((s) => s.cohort === cohort && s.path === path && s.state === coldState && s.p50Ms !== null)
      .sort((x, y) => x.order - y.order);
    if (r === null || r <= 0 || spans.length < 2) continue;
    coldSpans.push({
      id: `${cohort} ${path} ${coldState} spans`,
      cohort,
      path,
      state: coldState,
      readyP50Ms: r,
      spans: spans.map((s) => ({ name: s.name, p50Ms: s.p50Ms!, share: s.p50Ms! / r })),
    });
  }
  return { reads, coldSpans };
}
