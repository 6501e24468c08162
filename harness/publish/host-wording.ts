// Host facts worded once for every report, so that the reports never
// describe the same host in two ways (issue #20: "no /dev/kvm" in one
// report, "/dev/kvm opens" in another).
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { SessionRecord } from '../contract/exchange-files.js';

/** Why no KVM guest (Firecracker, runsc --platform=kvm) runs on this host. */
export const KVM_UNAVAILABLE = 'this host cannot run KVM guests (/dev/kvm exists, but the CPU offers no vmx or svm)';

// ---- the noise flag calibrated on the canary (analysis/session-noise.ts) ----

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const times = (x: number): string => `×${x.toFixed(2)}`;

/** The sessions table's "noisy" cell: the calibrated verdict with the canary's figure and the CPU account; the record's own flag for an analysis without it. */
export function noiseCell(a: Pick<AnalysisResult, 'noise'>, r: Pick<SessionRecord, 'session' | 'noise'>): string {
  const v = a.noise?.sessions.find((s) => s.session === r.session);
  if (!v) return r.noise.noisy ? `yes: ${r.noise.reasons.join('; ')}` : 'no';
  const account = v.account.join('; ');
  if (v.verdict === 'noisy') {
    // a noisy session whose CPU account names no cause says nothing more here: noiseCauseSentence says it once for them all
    const slower = v.slower.map((p) => `canary ${p.piece} ${times(p.ratio)} the other sessions`).join(', ');
    return `yes: ${slower}${account ? `; ${account}` : ''}`;
  }
  if (v.verdict === 'not judged') return `not judged (${a.noise!.sessions.length < 2 ? 'one session' : 'no canary'})${v.account.length ? `; ${account}` : ''}`;
  return v.account.length ? `no (canary as the other sessions); ${account}` : 'no';
}

/** Once for a run: the noisy sessions whose CPU account names no cause (the canary moved, nothing in the account says why); null when there is none. */
export function noiseCauseSentence(a: Pick<AnalysisResult, 'noise'>): string | null {
  const noisy = a.noise?.sessions.filter((s) => s.verdict === 'noisy') ?? [];
  const unexplained = noisy.filter((s) => !s.account.length).map((s) => s.session);
  if (!unexplained.length) return null;
  const which = unexplained.length === 1 ? `session ${unexplained[0]}` : `sessions ${unexplained.join(', ')}`;
  return `For ${unexplained.length === noisy.length ? (noisy.length === 1 ? 'the noisy session' : `all ${noisy.length} noisy sessions`) : which} (${which}), the CPU account names no cause: the canary moved, and neither steal, other processes, iowait nor memory crossed its threshold; the cause is not known.`;
}

/** The rule the sessions table's "noisy" column applies. */
export function noiseRuleSentence(a: Pick<AnalysisResult, 'noise'>, background: 'scope' | 'here' = 'scope'): string {
  const thresholds = 'steal reaches 2%, other processes take 10% of the CPU capacity, iowait reaches 25%, or available memory falls below 10%';
  if (!a.noise) return `A session is flagged noisy when ${thresholds}; a noisy session is reported, never dropped.`;
  const r = a.noise.rule;
  return (
    `A session is flagged noisy when its host canary is slower than the run's other sessions beyond its interval: for some piece, the lower end of its interval lies above the other sessions' median, by ${times(r.minSlowdown)} or more. ` +
    `Its CPU account then says why: whether ${thresholds}, after the steady background is taken out (a process among the top users of every session at ${pct(r.steadyMinShare)} of the capacity or more, within ×${r.steadyMaxSpread}; ${background === 'scope' ? 'the scope line names it once' : 'named once at the end of this paragraph'}). A noisy session is reported, never dropped.`
  );
}

/** The scope line's sentence on the steady background of every session; null when there is none. */
export function steadyBackgroundSentence(a: Pick<AnalysisResult, 'noise'>): string | null {
  const steady = a.noise?.steady ?? [];
  if (!steady.length) return null;
  const list = steady.map((s) => `${s.name} ${s.lowShare === s.highShare ? pct(s.lowShare) : `${pct(s.lowShare)}–${pct(s.highShare)}`}`).join(', ');
  // a process's count includes the children it reaped: for an init process, the orphans it adopted, which may be the run's own daemons
  return `**Background:** ${list} of the CPU capacity in every session, with the children each reaped (the run's own daemons among them, if an init adopted them): steady, not counted as noise.`;
}
