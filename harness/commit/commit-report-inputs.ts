// What the commit-diff report is made from (types only): the analysis, every
// formal commit row, the change-set checks, the sessions' facts and the pins.
import type { CommitAnalysis, CommitRowData } from './commit-analysis.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';

export interface CommitReportInputs {
  experiment: { name: string; question?: string };
  pipelineFileName: string;
  analysis: CommitAnalysis;
  /** Every commit of the run (warmup rows are dropped where the report uses them). */
  rows: readonly CommitRowData[];
  checks: { cell: string; state: string; entries: number | null; equal: boolean; differences: string[] }[];
  session: {
    seed?: string;
    sessions?: number;
    rounds?: number;
    warmupRounds?: number;
    order?: string;
    durationS?: number;
    cpus?: number;
    image?: string;
    /** The sampling host's name and the first session's start (ISO time). */
    host?: string;
    startedAt?: string;
  };
  pins: {
    kernel?: string;
    node?: string;
    binaries?: { name: string; version?: string; sha256?: string; path?: string }[];
    images?: Record<string, { tarSha256?: string; tarBytes?: number }>;
  } | null;
  stages: { id: string; kind: string; outputDigest: string }[];
  samplesSha256: string | null;
  /** The benchgraph commit that rendered the report, and whether its work tree had uncommitted changes; null outside a git checkout. */
  commit?: { sha: string; dirty: boolean } | null;
  /** report.notes of the pipeline file: context the data cannot state (e.g. that the machine was quiet). */
  notes?: string[];
  /** Every sampling session's record (host, times, the host's other load), for the shared host-noise table. */
  sessionRecords?: readonly SessionRecord[] | null;
  /** The noise flag calibrated on the host canary (publish/calibrated-noise.ts); absent: the fixed thresholds. */
  noise?: AnalysisResult['noise'];
  /** The Method's sentence on the design's operating characteristics (comparison/operating-words.ts); null without formal commits. */
  operating?: string | null;
}
