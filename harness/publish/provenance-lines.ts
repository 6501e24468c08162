// The report's provenance paragraph (pure): host, benchgraph commit,
// measurement dates and, only when an image was built from one, the Debian
// package set.
import type { SampleRow } from '../db/sample-row.js';
import { fixed } from './format-number.js';
import type { Provenance } from './provenance.js';

/** First and last start time of the formal launches (ISO strings sort in time order), or null. */
export function measuredBetween(launches: readonly SampleRow[]): { first: string; last: string } | null {
  const times = launches
    .filter((r) => r['phase'] === 'formal' && typeof r['started_at'] === 'string')
    .map((r) => String(r['started_at']))
    .sort();
  return times.length ? { first: times[0]!, last: times[times.length - 1]! } : null;
}

const day = (iso: string): string => iso.slice(0, 10);
const minute = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

export function measurementText(launches: readonly SampleRow[]): string {
  const m = measuredBetween(launches);
  if (!m) return 'No formal launch is recorded, so there is no measurement date.';
  return day(m.first) === day(m.last)
    ? `Measured on ${day(m.first)}, formal launches from ${minute(m.first).slice(11)} to ${minute(m.last).slice(11)} UTC.`
    : `Measured from ${minute(m.first)} to ${minute(m.last)} UTC.`;
}

/** The provenance as list items: host, commit, measurement dates, and the package set when there is one. */
export function provenanceLines(p: Provenance, launches: readonly SampleRow[]): string[] {
  const L: string[] = [];
  const h = p.host;
  if (h) {
    const parts = [
      h.cpuModel ? `CPU ${h.cpuModel}` : null,
      h.vcpus !== null ? `${h.vcpus} vCPUs` : null,
      h.memoryBytes !== null ? `${fixed(h.memoryBytes / 2 ** 30, 1)} GiB RAM` : null,
      h.virtualization ? `virtualization or container: ${h.virtualization}` : null,
      h.storageDriver ? `data folder on ${h.storageDriver}` : null,
      h.cgroupVersion ? `cgroup ${h.cgroupVersion}` : null,
      h.kernel ? `kernel ${h.kernel}` : null,
    ].filter(Boolean);
    L.push(`Host: ${parts.join(', ')}; ${h.source}.`);
  } else {
    L.push('Host: not recorded.');
  }
  L.push(
    p.commit
      ? `benchgraph commit ${p.commit.sha}${p.commit.dirty ? ' with uncommitted changes (dirty)' : ' (clean)'}.`
      : 'benchgraph commit: unknown (not a git checkout).',
  );
  L.push(measurementText(launches));
  if (p.packageSet)
    L.push(
      `Images built with mmdebstrap from the Debian mirror ${p.packageSet.mirror}${p.packageSet.builtAt ? ` on ${minute(p.packageSet.builtAt)} UTC (start of the pin stage; the mirror's package set of that day)` : ' (build date not recorded)'}.`,
    );
  return L;
}
