// The fields on which two host fingerprints differ (host-fingerprint.ts), for
// `pipeline compare`, `pipeline history` and doctor. Pure. Kept apart from the
// reader so a change here never changes the sampling stage's code key.
import type { HostFingerprint } from './host-fingerprint.js';

export interface FingerprintChange {
  /** Field name, `vulnerabilities.<file>` for a vulnerability line. */
  field: string;
  before: string;
  after: string;
}

/** Memory sizes within 2% count as the same (a reboot moves reserved memory by a few MB). */
const MEMORY_TOLERANCE = 0.02;

/**
 * Pure: the fields on which two (possibly partial) fingerprints differ. A field
 * only one of them has is not a difference (an older record lacks it), nor is
 * steal `unknown` on either side.
 */
export function fingerprintChanges(a: Partial<HostFingerprint>, b: Partial<HostFingerprint>): FingerprintChange[] {
  const out: FingerprintChange[] = [];
  // The data folder's file system in words ("ext4 without a journal → ext4 with a journal") where both records
  // say whether it has a journal: the cause a reader needs, rather than the mount option strings that came with it.
  const folder = (f: Partial<HostFingerprint>): string | null =>
    f.dataJournal && f.dataJournal !== 'unknown' ? `${f.dataFsType ?? 'unknown'} ${f.dataJournal === 'journal' ? 'with' : 'without'} a journal` : null;
  const fa = folder(a);
  const fb = folder(b);
  const worded = fa !== null && fb !== null && fa !== fb;
  if (worded) out.push({ field: 'data folder', before: fa, after: fb });
  const keys = (Object.keys(a) as (keyof HostFingerprint)[])
    .filter((k) => k in b)
    .filter((k) => !(worded && (k === 'dataJournal' || k === 'dataFsType' || k === 'dataMountOptions')))
    .sort();
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === undefined || y === undefined) continue;
    if (k === 'vulnerabilities') {
      const va = x as Record<string, string>;
      const vb = y as Record<string, string>;
      for (const name of [...new Set([...Object.keys(va), ...Object.keys(vb)])].sort()) {
        if (name in va && name in vb && va[name] !== vb[name]) out.push({ field: `vulnerabilities.${name}`, before: va[name]!, after: vb[name]! });
      }
      continue;
    }
    if (k === 'steal' && (x === 'unknown' || y === 'unknown')) continue;
    if (k === 'memoryBytes' && Math.abs((x as number) - (y as number)) <= MEMORY_TOLERANCE * Math.max(x as number, y as number)) continue;
    if (String(x) !== String(y)) out.push({ field: k, before: String(x), after: String(y) });
  }
  return out;
}
