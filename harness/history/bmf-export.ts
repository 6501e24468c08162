// Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format):
// { "<benchmark>": { "<measure>": { "value": N, "lower_value": N, "upper_value": N } } }.
// One benchmark per cell of the latest run (`shell lazy cold ready`), measure
// `latency` (Bencher's built-in one, in nanoseconds) for time cells. The value
// is the mean of the run's session medians; the bounds are its 95% Student's t
// interval with 3 or more sessions, else the smallest and largest session
// median. Cells in other units (bytes) use a measure named after the unit. Pure.
import type { History } from './build-history.js';

export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

export type Bmf = Record<string, Record<string, BmfMetric>>;

const NS_PER = { ms: 1e6, s: 1e9, us: 1e3, ns: 1 } as Record<string, number>;

export function bmfExport(h: History): Bmf {
  const out: Bmf = {};
  const last = h.runs.length;
  for (const c of h.cells) {
    const p = c.points.find((x) => x.run === last);
    if (!p || !p.sessions.length) continue;
    const scale = NS_PER[c.unit];
    const measure = scale !== undefined ? 'latency' : c.unit || 'value';
    const k = scale ?? 1;
    const mean = p.sessions.reduce((s, v) => s + v, 0) / p.sessions.length;
    const low = p.low ?? Math.min(...p.sessions);
    const high = p.high ?? Math.max(...p.sessions);
    out[`${c.cohort} ${c.path} ${c.state} ${c.metric}`] = { [measure]: { value: mean * k, lower_value: low * k, upper_value: high * k } };
  }
  return out;
}
