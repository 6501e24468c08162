// Whether a measured difference is smaller than what the instrument itself
// costs one of its paths (docs/STATISTICS.md, pipelines/instrument-cost.yaml):
// the caveat a conclusion must carry, or null. A cost row is the interval of
// counted - direct (the byte-counting proxy) or helper - bare (the launch
// helper) on one path and state; the difference is compared with the upper
// end of each cost interval of its two paths in its state.

export interface InstrumentCost {
  /** What costs: e.g. "the byte-counting proxy". */
  instrument: string;
  path: string;
  state: string;
  lowMs: number;
  highMs: number;
}

export interface MeasuredDifference {
  a: string;
  b: string;
  state: string;
  observedMs: number;
}

export function instrumentCostCaveat(d: MeasuredDifference, costs: readonly InstrumentCost[]): string | null {
  const relevant = costs.filter((c) => c.state === d.state && (c.path === d.a || c.path === d.b) && Math.abs(d.observedMs) < c.highMs);
  if (relevant.length === 0) return null;
  const what = relevant.map((c) => `${c.instrument} costs ${c.path} ${c.state} ${c.lowMs.toFixed(1)} to ${c.highMs.toFixed(1)} ms`).join('; ');
  return `the difference (${d.observedMs.toFixed(1)} ms) is smaller than the instrument's own cost on one of its paths: ${what}`;
}
