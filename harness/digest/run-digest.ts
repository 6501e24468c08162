// A run's digest: sha256 of the canonical JSON of its experiment and, per
// stage, what the store records of it (uses, key, output digest, manifest
// digest). The registry tags a pushed run with it (store/run-artifact.ts), and
// an archived run's folder is named after it (history/archive-run.ts), so a
// run has one id, its first 12 hex digits, wherever it is.
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './sha256.js';

export interface RunStageDigests {
  uses: string;
  key: string;
  outputDigest: string;
  /** sha256:<hex> of the stage's manifest.json */
  manifest: string;
}

/** The hex digits of a run digest that name the run (push, the registry, the archive, history). */
export const RUN_ID_LENGTH = 12;

export function runDigestOf(experiment: string, stages: Record<string, RunStageDigests>): string {
  return sha256Hex(canonicalJson({ experiment, stages }));
}

/** An archived run's digest (history/run-record.ts): the run digest its run.json records, else, for runs archived before and imported ones, sha256 of run.json's canonical JSON. */
export function archivedRunDigest(record: { runDigest?: unknown }): string {
  return typeof record.runDigest === 'string' ? record.runDigest : sha256Hex(canonicalJson(record));
}
