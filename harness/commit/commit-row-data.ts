// The journaled rows of commit-diff as its analysis, position rule and report
// read them (commit-columns.ts makes them from samples.duckdb): a commit of a
// cell by a method, and a compression launch.
export interface CommitRowData {
  cell: string;
  dims: Record<string, number>;
  method: string;
  state: string;
  phase: string;
  session: number;
  round: number;
  ok: boolean;
  failureReason: string | null;
  wallMs: number | null;
  engineCpuMs: number | null;
  /** The engine's user and system CPU and its read/write system calls; absent in runs before they were recorded. */
  engineUserCpuMs?: number | null;
  engineSysCpuMs?: number | null;
  engineSyscalls?: number | null;
  diskReadBytes: number | null;
  readCharsBytes: number | null;
  layerBytes: number | null;
}

export interface CompressionRowData {
  method: string;
  round: number;
  layerBytes: number;
  compressedBytes: number | null;
  wallMs: number | null;
  ok: boolean;
  note: string;
}
