// Made-up commit-diff rows for tests of our own analysis and report logic.
import type { CommitRowData } from '../../harness/commit/commit-analysis.js';

/** The cell key the journal writes, e.g. "change_bytes=1024,file_count=100,total_mb=100". */
export const cellId = (d: Record<string, number>): string => `change_bytes=${d['change_bytes']},file_count=${d['file_count']},total_mb=${d['total_mb']}`;

export function commitRow(
  d: Record<string, number>,
  method: string,
  state: string,
  round: number,
  wallMs: number,
  phase = 'formal',
  session = 1,
): CommitRowData {
  return {
    cell: cellId(d),
    dims: d,
    method,
    state,
    phase,
    session,
    round,
    ok: true,
    failureReason: null,
    wallMs,
    engineCpuMs: null,
    diskReadBytes: null,
    readCharsBytes: null,
    layerBytes: null,
  };
}
