// Everything the report renders, gathered by the report stage (effects) and
// passed to the pure renderers. Each upstream file may be absent.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { AdaptiveRecordFile } from './stopping-section.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import type { SampleRow } from '../db/sample-row.js';
import type { ReportOptions } from '../config/report-options.js';
import type { Provenance } from '../publish/provenance.js';
import type { Requirement } from '../contract/requirement.js';

export type { HostDescription, Provenance } from '../publish/provenance.js';
import type { BinaryPin, ImagePin, Pins as ContractPins, SamplingSummary, SessionRecord, VerifyResult } from '../contract/exchange-files.js';

/**
 * The exchanged files as the report reads them: the shapes of
 * contract/exchange-files.ts, every field optional (files written by older
 * versions, or imported samples, may lack some); `ref` is an older pin field.
 */
export type PinnedImage = Partial<ImagePin> & { ref?: string };
export type Pins = Partial<Omit<ContractPins, 'images' | 'binaries'>> & {
  images?: Record<string, PinnedImage>;
  binaries?: (Pick<BinaryPin, 'name'> & Partial<BinaryPin>)[];
};
export type Session = SamplingSummary;
export type Verify = Pick<VerifyResult, 'ok'> & Partial<Omit<VerifyResult, 'ok'>>;

export interface UpstreamStage {
  id: string;
  kind: string;
  outputDigest: string;
}

export interface ReportInputs {
  config: Pick<PipelineConfig, 'experiment' | 'design' | 'cohorts' | 'paths' | 'artifacts' | 'services' | 'stages'>;
  options: ReportOptions;
  /** Pipeline file relative to its own folder, e.g. pipeline.yaml. */
  pipelineFileName: string;
  analysis: AnalysisResult | null;
  session: Session | null;
  pins: Pins | null;
  verify: Verify | null;
  stages: UpstreamStage[];
  samplesSha256: string | null;
  /** report.notes that apply to these samples (config/run-notes.ts); absent: worked out here with the samples' run unknown. */
  notes?: readonly string[];
  /** Every launch of samples.duckdb (all phases, sample schema columns) in run order. */
  launches: SampleRow[];
  provenance: Provenance;
  /** Every sampling session's record (host, times, the host's other load), from the sample stage's observations; null when absent (imported samples). */
  sessions: SessionRecord[] | null;
  /** Preflight launches, run by the warmup stage (warmup.json) and not stored in the sample table; null when absent. */
  preflight: { launches: number; failures: number } | null;
  /** The design's warning from the coverage simulation (stats/coverage-warning.ts), when the report stage was given a coverage table and the design falls below its threshold. */
  coverageWarning?: string | null;
  /** The sample stage's adaptive.json (design.adaptive), for "What stopping saved"; absent or null when the run was not adaptive. */
  adaptive?: AdaptiveRecordFile | null;
  /** The pinned tools the experiment used (publish/used-tools.ts); undefined: not known, every pin is listed. */
  tools?: readonly string[];
  /** Kernel features its scripts use: erofs, overlay, fuse, loop. */
  kernelFeatures?: readonly string[];
  /** The requirements its sample stage declared and checked (requirements.json), when it wrote them. */
  requirements?: readonly Requirement[] | null;
}

/** Order of ids: as listed in the config first, then any others alphabetically. */
export function orderIds(found: Iterable<string>, configured: readonly string[]): string[] {
  const set = new Set(found);
  return [...configured.filter((id) => set.has(id)), ...[...set].filter((id) => !configured.includes(id)).sort()];
}
