// What an experiment's document says of the run itself, whatever it
// measured: its design, what it leaves unmeasured, the notes for these
// samples (config/run-notes.ts), its provenance lines and the host's noise.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';

export interface DocumentRun {
  sessions: number;
  rounds: number;
  unmeasured: readonly string[];
  notes: readonly string[];
  provenance: readonly string[];
  /** The sampling sessions' records (host noise), and the analysis' noise finding calibrated on the canary; null without records. */
  sessionRecords: readonly SessionRecord[] | null;
  noise: AnalysisResult['noise'];
}
