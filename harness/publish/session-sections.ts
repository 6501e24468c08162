// The host during each sampling session, for every experiment's report: a
// table over the session records (contract/exchange-files.ts SessionRecord)
// with CPU shares, load, iowait, the CPU time of other processes and the
// noise verdict. Shares are of the host's capacity and stay within 0-100%:
// the other processes' CPU time is capped by the busy time /proc/stat saw
// (the cap process/host-noise.ts applies to new records, applied again here
// to records written before it). Pure.
import type { SessionRecord } from '../contract/exchange-files.js';
import { paragraph, table, type Block } from '../document/document-model.js';
import { noisySession, type HostNoise } from '../process/host-noise.js';
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { fixed } from './format-number.js';
import { noiseCauseSentence, noiseCell, noiseRuleSentence, steadyBackgroundSentence } from './host-wording.js';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The session's noise with the other processes' CPU time capped by the busy share of the capacity. */
export function cappedNoise(n: HostNoise): HostNoise {
  const capacityMs = n.wallMs * n.cpuCount;
  const busyMs = Math.max(0, 1 - n.idleShare - n.iowaitShare) * capacityMs;
  const foreignCpuMs = capacityMs > 0 ? Math.min(n.foreignCpuMs, busyMs) : n.foreignCpuMs;
  return { ...n, foreignCpuMs, topForeign: n.topForeign.map((f) => ({ ...f, cpuMs: Math.min(f.cpuMs, foreignCpuMs) })) };
}

/** Share of the host's CPU capacity the other processes used over the session, 0 to 1. */
export function foreignShare(n: HostNoise): number {
  const capacityMs = n.wallMs * n.cpuCount;
  return capacityMs > 0 ? Math.min(1, cappedNoise(n).foreignCpuMs / capacityMs) : 0;
}

/** The host-noise paragraph and table, or nothing without session records; with the analysis' calibrated noise finding (analysis/session-noise.ts) when given. */
/** background 'scope': the report's scope line names the steady background (the default report); 'here': this section does. */
export function hostNoiseBlocks(
  records: readonly SessionRecord[] | null,
  a: Pick<AnalysisResult, 'noise'> = {},
  background: 'scope' | 'here' = 'scope',
): Block[] {
  if (!records || records.length === 0) return [];
  const steady = background === 'here' ? steadyBackgroundSentence(a) : null;
  return [
    paragraph(
      "The host during each session: CPU shares over the session from /proc/stat, load average at start and end, and the CPU time of processes that are not the run's own (top names), with their share of the CPU capacity (wall time × CPUs). " +
        noiseRuleSentence(a, background) +
        ' The load average is shown but not part of the rule, since it counts the run’s own launches too.' +
        (noiseCauseSentence(a) ? ` ${noiseCauseSentence(a)}` : '') +
        (steady ? ` ${steady}` : ''),
    ),
    table(
      ['session', 'attempt', 'host', 'started (UTC)', 'duration', 'load start → end', 'steal', 'iowait', 'other processes (CPU s)', 'noisy'],
      records.map((r) => {
        const n = cappedNoise(r.noise);
        const seconds = (Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000;
        const top = n.topForeign
          .slice(0, 3)
          .map((t) => `${t.name} ${fixed(t.cpuMs / 1000, 1)}`)
          .join(', ');
        return [
          String(r.session),
          String(r.attempt),
          r.host,
          r.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ''),
          seconds < 120 ? `${fixed(seconds, 1)} s` : `${fixed(seconds / 60, 1)} min`,
          `${fixed(n.loadAverageStart[0], 2)} → ${fixed(n.loadAverageEnd[0], 2)}`,
          pct(n.stealShare),
          pct(n.iowaitShare),
          `${fixed(n.foreignCpuMs / 1000, 1)}, ${pct(foreignShare(r.noise))}${top ? ` (${top})` : ''}`,
          noiseCell(a, { session: r.session, noise: { ...n, ...noisySession(n) } }),
        ];
      }),
    ),
  ];
}
