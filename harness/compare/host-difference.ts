// The hosts of two report folders, side by side: the fingerprint fields that
// differ (fingerprint-diff.ts), and the sentence `pipeline compare` adds when
// a conclusion was lost or changed while the hosts differ. Pure.
import { fingerprintChanges, type FingerprintChange } from '../process/fingerprint-diff.js';
import type { FolderFingerprint } from './folder-fingerprint.js';

export interface HostDifference {
  /** Where each side's fingerprint came from, or null when the folder has none. */
  baseline: FolderFingerprint['source'] | null;
  candidate: FolderFingerprint['source'] | null;
  differences: FingerprintChange[];
}

export function hostDifference(baseline: FolderFingerprint | null, candidate: FolderFingerprint | null): HostDifference {
  return {
    baseline: baseline?.source ?? null,
    candidate: candidate?.source ?? null,
    differences: baseline && candidate ? fingerprintChanges(baseline.fingerprint, candidate.fingerprint) : [],
  };
}

/** `host: cpuModel (AMD EPYC → Intel Xeon), …`, `host: same (…)`, or `host: not recorded in …`. */
export function hostLine(h: HostDifference): string {
  if (!h.baseline || !h.candidate)
    return `host: not recorded in the ${!h.baseline && !h.candidate ? 'baseline or the candidate' : !h.baseline ? 'baseline' : 'candidate'}`;
  const partial =
    h.baseline === 'provenance' || h.candidate === 'provenance' ? ' (from provenance.csv: CPU model, vCPUs, memory, kernel, virtualization only)' : '';
  if (!h.differences.length) return `host: same${partial}`;
  return `host: ${h.differences.map((d) => `${d.field} (${d.before} → ${d.after})`).join(', ')}${partial}`;
}

/** The possible cause named when a conclusion was lost or changed, or null when the hosts are not known to differ. */
export function hostCause(h: HostDifference): string | null {
  if (!h.differences.length) return null;
  return `possible cause: the hosts differ in ${h.differences.map((d) => d.field).join(', ')}`;
}
