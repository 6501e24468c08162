// What a worker thread of analyze-in-workers.ts needs of the sample data, in
// typed arrays: the cells, the positions, and per valid formal launch its
// cell's ids, session, round, position, previous path and the two metrics.
// Sent instead of SampleData, the values are a few arrays, not 10^6 cloned
// objects (a second copy of them, in the worker, was a quarter of the peak
// memory at 10^6 launches). Launch ids, byte counts, marks, phases and
// failures stay behind: the bootstraps (analysis-parts.ts) do not read them.
// A missing metric travels as NaN, which the bootstraps skip as they skip null.
import type { SampleData, ValueRow } from './sample-data.js';

export interface CompactData {
  cells: SampleData['cells'];
  positions: SampleData['positions'];
  /** Distinct cohort, path, state and previous-path ids; the arrays below index them (-1: none). */
  names: string[];
  cohort: Int32Array;
  path: Int32Array;
  state: Int32Array;
  previous: Int32Array;
  session: Int32Array;
  round: Int32Array;
  position: Int32Array;
  readyMs: Float64Array;
  completionMs: Float64Array;
}

export function compactValues(data: Pick<SampleData, 'cells' | 'positions' | 'values'>): CompactData {
  const n = data.values.length;
  const names: string[] = [];
  const index = new Map<string, number>();
  const id = (s: string | null): number => {
    if (s === null) return -1;
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = names.push(s) - 1));
    return i;
  };
  const c: CompactData = {
    cells: data.cells,
    positions: data.positions,
    names,
    cohort: new Int32Array(n),
    path: new Int32Array(n),
    state: new Int32Array(n),
    previous: new Int32Array(n),
    session: new Int32Array(n),
    round: new Int32Array(n),
    position: new Int32Array(n),
    readyMs: new Float64Array(n),
    completionMs: new Float64Array(n),
  };
  data.values.forEach((v, i) => {
    c.cohort[i] = id(v.cohort);
    c.path[i] = id(v.path);
    c.state[i] = id(v.state);
    c.previous[i] = id(v.previousPath);
    c.session[i] = v.session;
    c.round[i] = v.round;
    c.position[i] = v.position;
    c.readyMs[i] = v.readyMs ?? Number.NaN;
    c.completionMs[i] = v.completionMs ?? Number.NaN;
  });
  return c;
}

/** The typed arrays of a CompactData, to transfer rather than copy. */
export const compactBuffers = (c: CompactData): ArrayBuffer[] =>
  [c.cohort, c.path, c.state, c.previous, c.session, c.round, c.position, c.readyMs, c.completionMs].map((a) => a.buffer as ArrayBuffer);

/** Sample data for the bootstraps: the values rebuilt (ids '' and bytes null), no marks, phases or failures. */
export function expandValues(c: CompactData): SampleData {
  const values: ValueRow[] = Array.from({ length: c.cohort.length }, (_, i) => ({
    launchId: '',
    cohort: c.names[c.cohort[i]!]!,
    path: c.names[c.path[i]!]!,
    state: c.names[c.state[i]!]!,
    session: c.session[i]!,
    round: c.round[i]!,
    position: c.position[i]!,
    previousPath: c.previous[i]! < 0 ? null : c.names[c.previous[i]!]!,
    readyMs: c.readyMs[i]!,
    completionMs: c.completionMs[i]!,
    contentBytes: null,
    responseBytes: null,
  }));
  return { cells: c.cells, positions: c.positions, values, marks: [], phases: [], failures: [] };
}
