// One run as `pipeline history` sees it: its identity and time, its archived
// record (key inputs and sessions) when it has one, its published tables, the
// per-session medians of each cell, pinned binaries and images, and its host
// fingerprint.
import type { FolderFingerprint } from '../compare/folder-fingerprint.js';
import type { PublishedReport } from '../compare/published-report.js';
import type { RunRecord } from './run-record.js';

export interface ProvenanceItem {
  /** binary, image, image-manifest, image-erofs */
  kind: string;
  name: string;
  version: string;
  sha256: string;
}

export interface HistoryRun {
  id: string;
  /** The run digest (history/archive-run.ts runDigest): of the folder's own run.json, or of the archived run holding the same statistics.csv; null when neither exists. */
  digest: string | null;
  folder: string;
  time: string;
  label: string | null;
  record: RunRecord | null;
  report: PublishedReport;
  /** cohort\0path\0state\0metric -> the median of each session, in session order (sessions.csv). */
  sessionMedians: Record<string, number[]>;
  provenance: ProvenanceItem[];
  fingerprint: FolderFingerprint | null;
}

export const cellKey = (c: { cohort: string; path: string; state: string; metric: string }): string => [c.cohort, c.path, c.state, c.metric].join('\u0000');
